import { parseArgs } from 'node:util';
import { commandsStartingWith, findCommand, HELP, optionsOf, UsageError, usageOf, type CommandSpec } from './usage.js';

export type Options = Readonly<Record<string, string | boolean | undefined>>;

export type ParsedCommandLine =
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'run'; readonly spec: CommandSpec; readonly command: string; readonly words: readonly string[]; readonly options: Options };

/** What the operator sees for a usage error: what is wrong, then the usage of that command (or group) only. */
export function usageErrorText(error: UsageError): string {
  const found = error.command ? findCommand(error.command.split(' ')) : undefined;
  const specs = found ? [found.spec] : commandsStartingWith(error.command?.split(' ')[0]);
  const usage = specs.length > 0 ? usageOf(specs) : 'Usage: npm run gateway -- <command> [options]   (--help lists the commands)';
  return `gateway: ${error.message}\n${usage}\n`;
}

/** The words up to the first option: the command's name and anything after it. */
function leadingWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith('-')) break;
    words.push(arg);
  }
  return words;
}

/** Reads `argv` (after `npm run gateway --`) against the command table; throws UsageError. */
export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  const words = leadingWords(argv);
  if (words.length === 0) {
    if (argv.includes('--help') || argv.includes('-h')) return { kind: 'help', text: HELP };
    throw new UsageError(argv.length === 0 ? 'no command given' : `a command comes before its options (${argv[0]})`);
  }
  const found = findCommand(words);
  if (!found) throw new UsageError(`unknown command: ${words.join(' ')}`, words.join(' '));
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: optionsOf(found.spec) });
  } catch (error) {
    throw new UsageError(oneLine((error as Error).message), found.name);
  }
  if (parsed.values['help'] === true) return { kind: 'help', text: `${usageOf([found.spec])}\n  ${found.spec.about}\n` };
  const extra = parsed.positionals.slice(found.length);
  if (extra.length > 0) throw new UsageError(`unexpected argument: ${extra[0]}`, found.name);
  return { kind: 'run', spec: found.spec, command: found.name, words: parsed.positionals, options: parsed.values };
}

/** node:util's messages carry advice for scripts ("To specify a positional argument …"): the first sentence is enough. */
function oneLine(message: string): string {
  return message.split('\n')[0]!.replace(/\. To specify .*$/, '').replace(/\.$/, '');
}

/** An option that must be there and not empty. */
export function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** An option that may be absent; present, it needs a value. */
export function optional(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
