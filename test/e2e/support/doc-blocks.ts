/**
 * The shell examples of README.md and docs/*.md as test/e2e/docs-examples.test.ts runs them: every
 * ```sh, ```bash or ```shell block, its commands (continuation lines joined) and what the comment
 * lines right under a command say it answers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Written on the line right above a block that is deliberately not run, with the reason. */
export const NOT_RUN_MARKER = /^<!-- not run by docs-examples\.test\.ts: (.+?) -->$/;

/** Above a block that works only with the gateway stopped (the embedded database's `settlement` commands): run last, after it. */
export const GATEWAY_STOPPED_MARKER = '<!-- docs-examples.test.ts: run with the gateway stopped -->';

export interface DocCommand {
  readonly text: string;
  /** An HTTP status a comment under the command names (`# 404 {…}`), if any. */
  readonly status: number | undefined;
  /** The result codes that comment names (`"code":"700.400.580"`, `000.100.110`). */
  readonly resultCodes: readonly string[];
}

export interface DocBlock {
  /** `docs/api.md:136`: the file and the line of the opening fence. */
  readonly where: string;
  readonly script: string;
  readonly commands: readonly DocCommand[];
  /** The marker's reason when the block is not run. */
  readonly notRun: string | undefined;
  readonly gatewayStopped: boolean;
}

const FENCE = /^```(sh|bash|shell)\s*$/;
const RESULT_CODE = /\b\d{3}\.\d{3}\.\d{3}\b/g;

function expectationOf(comments: readonly string[]): Pick<DocCommand, 'status' | 'resultCodes'> {
  const text = comments.join('\n');
  const status = /^#\s*(\d{3})\b(?!\.)/.exec(comments[0] ?? '')?.[1];
  return { status: status === undefined ? undefined : Number(status), resultCodes: [...new Set(text.match(RESULT_CODE) ?? [])] };
}

/** A block's commands: lines ending in `\` joined, each with the comment lines right under it. */
export function commandsOf(script: string): DocCommand[] {
  const commands: { text: string; comments: string[] }[] = [];
  let pending = '';
  for (const line of script.split('\n')) {
    const trimmed = line.trim();
    if (pending === '' && trimmed.startsWith('#')) {
      commands.at(-1)?.comments.push(trimmed);
      continue;
    }
    if (pending === '' && trimmed === '') {
      // A blank line ends what the comments under the last command may say.
      commands.push({ text: '', comments: [] });
      continue;
    }
    pending += (pending ? ' ' : '') + trimmed.replace(/\\$/, '').trim();
    if (trimmed.endsWith('\\') || trimmed.endsWith('|')) continue;
    commands.push({ text: pending.replace(/\s+#.*$/, ''), comments: [] });
    pending = '';
  }
  return commands.filter((command) => command.text !== '').map((command) => ({ text: command.text, ...expectationOf(command.comments) }));
}

export function blocksOf(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    if (!FENCE.test(lines[i]!)) continue;
    const end = lines.findIndex((line, at) => at > i && line.startsWith('```'));
    const script = lines.slice(i + 1, end).join('\n');
    const above = lines.slice(0, i).reverse().find((line) => line.trim() !== '') ?? '';
    blocks.push({ where: `${file}:${i + 1}`, script, commands: commandsOf(script), notRun: NOT_RUN_MARKER.exec(above.trim())?.[1], gatewayStopped: above.trim() === GATEWAY_STOPPED_MARKER });
    i = end;
  }
  return blocks;
}

/** README.md, then docs/*.md in name order; the blocks that need the gateway stopped last. */
export function documentedBlocks(root: string): DocBlock[] {
  const files = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
  const blocks = files.flatMap((file) => blocksOf(file, readFileSync(join(root, file), 'utf8')));
  return [...blocks.filter((block) => !block.gatewayStopped), ...blocks.filter((block) => block.gatewayStopped)];
}

/** The placeholders a doc writes for what the reader has: `<entityId>`, the address of a local gateway. */
export function withPlaceholdersFilled(script: string, values: { readonly baseUrl: string; readonly entityId: string; readonly accessToken: string }): string {
  return script
    .replace(/https?:\/\/(127\.0\.0\.1|localhost):8080/g, values.baseUrl)
    .replace(/<(entityId|merchantId|id)>/g, values.entityId)
    .replace(/<accessToken>/g, values.accessToken);
}
