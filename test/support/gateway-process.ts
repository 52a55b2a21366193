import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { startCommand } from '../../bench/support/gateway.js';
import { scratchDataDir } from '../../bench/support/node-process.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** A real gateway process started as `npm start` starts it, for end-to-end tests. */
export interface GatewayProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** The administration listener's address (ADMIN_PORT), when it has one. */
  readonly adminUrl: string | undefined;
  /** Everything the process printed on stdout so far. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startGateway(env: Record<string, string>, timeoutMs = 60_000): Promise<GatewayProcess> {
  const start = startCommand();
  const child = spawn(process.execPath, [...start.nodeFlags, start.script], {
    cwd: ROOT,
    // No drain period on SIGTERM (SHUTDOWN_DRAIN_MS): a test that wants one sets it.
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', DATA_DIR: scratchDataDir(), SHUTDOWN_DRAIN_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start in time:\n${stdout}\n${stderr}`)), timeoutMs);
    const check = () => {
      // "gateway ready" comes after the demo merchant and the workers: the start is complete. Its
      // url is the public listener's (with ADMIN_PORT, Fastify logs two "Server listening" lines).
      const match = /"url":"(http[^"]+)"[^\n]*"msg":"gateway ready"/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code}:\n${stdout}\n${stderr}`));
    });
  });
  return {
    child,
    url,
    adminUrl: /"adminUrl":"(http[^"]+)"[^\n]*"msg":"gateway ready"/.exec(stdout)?.[1],
    output: () => stdout,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}

/**
 * Runs `npm run gateway -- …` (the operator's command line, compiled: scripts/gateway-cli.mjs,
 * which builds dist/ first when it is stale) and returns its output; `input` is its standard input.
 */
export async function runCli(args: string[], env: Record<string, string>, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/gateway-cli.mjs', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: scratchDataDir(), ...env }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  child.stdin?.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}
