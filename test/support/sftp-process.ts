import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, scratchDataDir } from '../../bench/support/node-process.js';

/** The built entry point `npm run sftp` runs (`npm run -s build && exec node <script>`), from package.json. */
export function sftpScript(): string {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const words = scripts['sftp']!.split('&&').at(-1)!.trim().replace(/^exec\s+/, '').split(/\s+/);
  if (words[0] !== 'node') throw new Error(`package.json's sftp script does not end with "node <script>": ${scripts['sftp']}`);
  return words.at(-1)!;
}

export interface SftpProcess {
  readonly child: ChildProcess;
  readonly port: number;
  output(): string;
  stop(): Promise<number | null>;
}

/** Runs the entry point with env; resolves once it logged "sftp server ready", rejects when it exits first. */
export async function startSftpProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<SftpProcess> {
  const child = spawn(process.execPath, [sftpScript()], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', DATA_DIR: scratchDataDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sftp process did not start in time:\n${text}`)), timeoutMs);
    child.stdout!.on('data', () => {
      const match = /"sftpPort":(\d+)[^\n]*"msg":"sftp server ready"/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`the sftp process exited with ${code}:\n${text}`), { code, output: text }));
    });
  });
  return {
    child,
    port,
    output: () => text,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}
