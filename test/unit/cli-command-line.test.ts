import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCommandLine, usageErrorText } from '../../src/cli/command-line.js';
import { COMMANDS, namesOf, UsageError } from '../../src/cli/usage.js';

type Row = readonly [argv: string, expected: { command: string; options?: Record<string, unknown> } | { error: RegExp; usage: readonly string[] }];

const split = (argv: string) => (argv === '' ? [] : argv.split(' '));

// One row per case: the command line, and what it reads as or the error and the usage shown.
const ROWS: readonly Row[] = [
  ['entity list', { command: 'entity list', options: {} }],
  ['entity create --name Shop --kind psp', { command: 'entity create', options: { name: 'Shop', kind: 'psp' } }],
  ['entity legacy-auth --entity e1 --off', { command: 'entity legacy-auth', options: { entity: 'e1', off: true } }],
  ['risk blacklist add --entity e1 --kind card', { command: 'risk blacklist add', options: { entity: 'e1', kind: 'card' } }],
  ['risk whitelist list --entity e1', { command: 'risk whitelist list', options: { entity: 'e1' } }],
  ['settlement run --date 2026-01-01 --rewrite-files', { command: 'settlement run', options: { date: '2026-01-01', 'rewrite-files': true } }],
  ['webhook create --entity e1 --url=http://x.example', { command: 'webhook create', options: { entity: 'e1', url: 'http://x.example' } }],
  ['webhook local-receivers --entity e1 --set localhost:4242', { command: 'webhook local-receivers', options: { entity: 'e1', set: 'localhost:4242' } }],
  ['', { error: /^no command given$/, usage: [] }],
  ['--entity e1', { error: /command comes before its options/, usage: [] }],
  ['frobnicate', { error: /^unknown command: frobnicate$/, usage: [] }],
  ['entity explode', { error: /^unknown command: entity explode$/, usage: ['entity create', 'entity list', 'entity bank-account'] }],
  ['webhook create --entity', { error: /--entity <value>' argument missing/, usage: ['webhook create'] }],
  ['webhook create --entity e1 --bogus 1', { error: /Unknown option '--bogus'/, usage: ['webhook create'] }],
  ['entity list --name x', { error: /Unknown option '--name'/, usage: ['entity list'] }],
  ['entity list extra', { error: /^unexpected argument: extra$/, usage: ['entity list'] }],
  ['settlement run --rewrite-files=yes', { error: /does not take an argument/, usage: ['settlement run'] }],
  ['vault find-card --kind', { error: /--kind <value>' argument missing/, usage: ['vault find-card'] }],
];

function usageLines(text: string): string[] {
  return text.split('\n').filter((l) => l.includes('npm run gateway -- ')).map((l) => l.replace(/^.*npm run gateway -- /, ''));
}

describe('the command line reads its arguments against the command table', () => {
  for (const [argv, expected] of ROWS) {
    it(argv || '(nothing)', () => {
      if ('command' in expected) {
        const parsed = parseCommandLine(split(argv));
        assert.equal(parsed.kind, 'run');
        if (parsed.kind !== 'run') return;
        assert.equal(parsed.command, expected.command);
        const { help: _help, ...options } = parsed.options;
        assert.deepEqual(options, expected.options);
        return;
      }
      assert.throws(() => parseCommandLine(split(argv)), (error: unknown) => {
        assert.ok(error instanceof UsageError);
        assert.match(error.message, expected.error);
        const text = usageErrorText(error);
        assert.equal(text.split('\n')[0], `gateway: ${error.message}`, 'one line says what is wrong');
        const shown = usageLines(text);
        for (const name of expected.usage) assert.ok(shown.some((l) => l.startsWith(name)), `${name} in ${text}`);
        // Never the whole help: at most the commands of one group.
        assert.ok(shown.length <= 10, text);
        if (expected.usage.length === 1) assert.equal(shown.length, 1, text);
        return true;
      });
    });
  }

  it('--help alone prints every command; <command> --help prints that one', () => {
    const all = parseCommandLine(['--help']);
    assert.equal(all.kind, 'help');
    for (const spec of COMMANDS) assert.ok(all.kind === 'help' && all.text.includes(spec.usage), spec.usage);
    const one = parseCommandLine(['webhook', 'create', '--help']);
    assert.ok(one.kind === 'help' && usageLines(one.text).length === 1);
  });

  it('a usage error raised while running names the command it belongs to', () => {
    const text = usageErrorText(new UsageError('--url is required', 'webhook create'));
    assert.deepEqual(usageLines(text).map((l) => l.split(' --')[0]), ['webhook create']);
  });

  it('every command name is unique across the table', () => {
    const names = COMMANDS.flatMap(namesOf);
    assert.equal(new Set(names).size, names.length);
  });
});
