/**
 * Every command of `npm run gateway`, as data: its usage line (from which its options are read)
 * and what it does. The full help is made from this table, and a mistake in one command answers
 * with that command's usage alone. Kept free of imports so `--help` and a typo answer at once.
 */
export type CommandGroup = 'entity' | 'webhook' | 'vault' | 'routing' | 'risk' | 'settlement' | 'users' | 'audit';

export interface CommandSpec {
  readonly group: CommandGroup;
  /** Words, then options: `a|b` among the words names two commands; `--x <v>` takes a value, `--y` does not. */
  readonly usage: string;
  readonly about: string;
}

/** A missing, unknown or malformed part of a command: one line, the command's usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string, readonly command?: string) {
    super(message);
  }
}

export const COMMANDS: readonly CommandSpec[] = [
  { group: 'entity', usage: 'entity create --name <name> [--merchant <merchantId>] [--kind psp|division] [--parent <id>]', about: 'create a merchant (or, with --merchant, a channel of it) and its first access token; prints {"entityId", "accessToken", ...}. With --kind, a PSP or a division (under --parent, a PSP); a merchant\'s --parent is its division or PSP (reconciliation files\' PspId, DivisionId)' },
  { group: 'entity', usage: 'entity list', about: 'list all entities' },
  { group: 'entity', usage: 'entity legacy-auth --entity <entityId> --on|--off', about: 'accept (default) or refuse OPPWA\'s authentication.userId/password/entityId fields for an entity; Bearer tokens work either way' },
  { group: 'entity', usage: 'entity unknown-parameters --entity <entityId> --mode reject|ignore', about: 'what the entity\'s requests get for a parameter no endpoint knows: refused naming it (reject, the default) or left out and listed in the answer\'s ignoredParameters (ignore)' },
  { group: 'entity', usage: 'entity three-d-secure --entity <entityId> --requirement never|if-enrolled|always|above:<amount>:<currency>', about: 'whether the entity\'s card payments must be authenticated by 3-D Secure (if-enrolled, the default: enrolled cards are; always: cards that cannot be are refused; above:50.00:EUR: always above that amount)' },
  { group: 'entity', usage: 'entity connector-details --entity <entityId> --on|--off', about: 'show (default) or hide the connector\'s details (ConnectorTxID1..3, AcquirerResponse, clearingInstituteName) in the entity\'s payment answers and webhooks; stored answers keep them either way' },
  { group: 'entity', usage: 'entity bank-account --entity <entityId> [--holder <name>] [--number <IBAN or account>] [--bic <BIC>] [--country <CC>] [--remove]', about: 'the account PREPAYMENT shoppers pay into (--holder required), answered as merchant.bankAccount.*, or --remove it; a channel without one uses its merchant\'s' },
  { group: 'entity', usage: 'token create --entity <entityId>', about: 'issue another access token for an entity (shown once)' },
  { group: 'entity', usage: 'token revoke --token-id <tokenId>', about: 'revoke an access token' },
  { group: 'webhook', usage: 'webhook create --entity <entityId> --url <url> [--types <PAYMENT,REGISTRATION,…>]', about: 'register a webhook; prints its webhookId and its 64-hex secret (shown once). It stays pending, and no notification is sent, until `webhook activate` after the receiver holds the secret. --types: of PAYMENT, REGISTRATION, SCHEDULE, RISK, TEST (default PAYMENT,REGISTRATION)' },
  { group: 'webhook', usage: 'webhook list [--entity <entityId>]', about: 'list webhooks (never their secrets)' },
  { group: 'webhook', usage: 'webhook activate --webhook <webhookId>', about: 'send the test notification now and activate on a 2xx answer' },
  { group: 'webhook', usage: 'webhook deactivate --webhook <webhookId>', about: 'stop notifications (queued ones are cancelled)' },
  { group: 'webhook', usage: 'webhook delete --webhook <webhookId>', about: 'remove a webhook' },
  { group: 'webhook', usage: 'webhook test --webhook <webhookId>', about: 'send a test notification now and show the answer' },
  { group: 'webhook', usage: 'webhook attempts --webhook <webhookId> [--limit <n>]', about: 'latest delivery attempts, newest first (default 100, at most 500)' },
  { group: 'webhook', usage: 'webhook resend --delivery <deliveryId>', about: 'send one delivery again now (same notification id)' },
  { group: 'webhook', usage: 'webhook local-receivers --entity <entityId> [--set <host:port,…>]', about: 'test system only: the local receivers (localhost or loopback address, and port) the entity\'s webhooks may be sent to, for development; --set "" clears them. Without --set, shows them' },
  { group: 'vault', usage: 'vault status', about: 'the current master key id and how many data keys each master key wraps' },
  { group: 'vault', usage: 'vault rotate-key', about: 're-wrap every data key with VAULT_MASTER_KEY (keys to unwrap with: VAULT_ACCEPTED_MASTER_KEYS); offline, VAULT_MASTER_KEY_NEW is the target instead and a local key file is replaced by it afterwards. Records are not touched; running it again is harmless' },
  { group: 'vault', usage: 'vault find-card [--kind card|iban|bankAccountNumber|tokenAccount]', about: 'registrations holding the number read from standard input (never pass a card number as an argument: it would stay in shell history)' },
  { group: 'routing', usage: 'route add --connector <id> [--entity <entityId>] [--brand <BRAND>] [--currency <EUR>] [--system test|live] [--fallback <routeId>]', about: 'route an entity\'s (or every entity\'s) payments of a brand and currency (or any) to a connector; its credentials are read as a JSON object from standard input (never pass them as arguments) and sealed by the vault' },
  { group: 'routing', usage: 'route list', about: 'every route (credential names only, never their values)' },
  { group: 'routing', usage: 'route credentials --route <routeId>', about: 'replace a route\'s credentials (JSON object on standard input): a rotation without downtime' },
  { group: 'routing', usage: 'route disable --route <routeId>', about: 'no new payment takes the route; its payments keep it for follow-ups' },
  { group: 'routing', usage: 'connector list', about: 'the connectors this build has, whether they may serve the live system' },
  { group: 'routing', usage: 'pending list [--limit <n>]', about: 'transactions still pending, oldest first, with their status checks' },
  { group: 'routing', usage: 'pending resolve --transaction <id> --outcome success|rejected --reason <text>', about: 'end a pending transaction by hand (000.600.000 or 100.397.102); the reason is kept with its resolution record' },
  { group: 'risk', usage: 'risk rules set --entity <entityId> [--by <name>]', about: 'a new version of the entity\'s risk rule set, read as JSON from standard input (docs/risk.md); --by names who changed it' },
  { group: 'risk', usage: 'risk rules show --entity <entityId>', about: 'the entity\'s rule set versions (newest first) and its change record' },
  { group: 'risk', usage: 'risk rules restore --entity <entityId> --version <n> [--by <name>]', about: 'an earlier version of the rule set made current again, as a new version' },
  { group: 'risk', usage: 'risk blacklist|whitelist import --entity <entityId> [--by <name>]', about: 'the entries of a CSV on standard input (kind,value[,reason] per line); one wrong line refuses all, named by its number' },
  { group: 'risk', usage: 'risk blacklist|whitelist add|remove --entity <entityId> --kind card|bin|iban|email|ip|country [--reason <text>] [--by <name>]', about: 'the value is read from standard input (a card number never goes on the command line); cards and IBANs are kept as the vault\'s fingerprint' },
  { group: 'risk', usage: 'risk blacklist|whitelist list --entity <entityId>', about: 'the entries of the entity\'s list' },
  { group: 'risk', usage: 'risk transaction --transaction <id>', about: 'the risk decision of a payment: score and the rules that fired' },
  { group: 'settlement', usage: 'settlement run --date <YYYY-MM-DD> [--rewrite-files]', about: 'ingest that settlement day from every connector with a settlement feed, match, record chargebacks, write the merchants\' reconciliation files (SETTLEMENT_FILES_DIR); only a day that has ended (UTC); running it again adds what is new and repeats nothing; --rewrite-files writes and pushes every merchant\'s file of the day again (a failed push)' },
  { group: 'settlement', usage: 'settlement sftp-key --merchant <merchantId> --key-file <file.pub>', about: 'let the holder of this OpenSSH public key fetch the merchant\'s files from the built-in SFTP server (user name: the merchant\'s entity id)' },
  { group: 'settlement', usage: 'settlement push-target --merchant <merchantId> --url sftp://user@host[:port]/folder', about: 'also push the merchant\'s files to its own server (sftp://, ftps://, ftp:// on the test system); the password is read from standard input and sealed by the vault' },
  { group: 'users', usage: 'users create-operator --email <address> [--role operator-admin|operator-support|operator-read-only] [--password-stdin]', about: 'a person of the console (docs/console.md); prints a one-time password (or reads the password from standard input with --password-stdin), changed at the first sign-in, where the authenticator app is set up' },
  { group: 'audit', usage: 'audit verify', about: 'walk the whole audit log and recompute its hash chain: prints {"ok": true, "entries": n} or the first entry that was changed, removed or put out of order (exit code 1)' },
  { group: 'settlement', usage: 'settlement fees --merchant <merchantId> --fixed <amount> --rate-bp <basis points> [--currency <ISO>]', about: 'the simulated acquirer\'s fee and settlement currency for a merchant' },
];

const PREFIX = 'npm run gateway --';

function wordsOf(spec: CommandSpec): string[] {
  return spec.usage.split(' ').filter((_, i, all) => !all.slice(0, i + 1).some((w) => w.startsWith('-') || w.startsWith('[')));
}

/** The command names a usage line stands for: `risk blacklist|whitelist list` is two. */
export function namesOf(spec: CommandSpec): string[] {
  return wordsOf(spec).reduce<string[]>((names, word) => word.split('|').flatMap((choice) => names.map((n) => (n ? `${n} ${choice}` : choice))), ['']);
}

export type OptionTypes = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** The options of a command, read from its usage line: `--x <v>` or `--x a|b` takes a value. */
export function optionsOf(spec: CommandSpec): OptionTypes {
  const options: OptionTypes = { help: { type: 'boolean', short: 'h' } };
  for (const match of spec.usage.matchAll(/--([a-z][a-z0-9-]*)(\s+(?!--|\[)[^\s\]]+)?/g)) {
    options[match[1]!] = { type: match[2] ? 'string' : 'boolean' };
  }
  return options;
}

/** The command the first words name (longest first), with how many words it took. */
export function findCommand(words: readonly string[]): { spec: CommandSpec; name: string; length: number } | undefined {
  for (let length = Math.min(3, words.length); length > 0; length -= 1) {
    const name = words.slice(0, length).join(' ');
    const spec = COMMANDS.find((s) => namesOf(s).includes(name));
    if (spec) return { spec, name, length };
  }
  return undefined;
}

/** `Usage: …` lines of the given commands. */
export function usageOf(specs: readonly CommandSpec[]): string {
  return specs.map((s, i) => `${i === 0 ? 'Usage:' : '      '} ${PREFIX} ${s.usage}`).join('\n');
}

/** The commands whose first word is `word` (what `webhook frobnicate` is answered with). */
export function commandsStartingWith(word: string | undefined): CommandSpec[] {
  return word === undefined ? [] : COMMANDS.filter((s) => namesOf(s).some((n) => n.split(' ')[0] === word));
}

function wrap(text: string, indent: string, width = 96): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent.length + line.length + word.length + 1 > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, indent + line].join('\n');
}

export const HELP = `Usage: ${PREFIX} <command> [options]     (${PREFIX} <command> --help: that command alone)

Commands:
${COMMANDS.map((s) => `  ${s.usage}\n${wrap(s.about, ' '.repeat(26))}`).join('\n')}

The command reads the gateway's configuration (DATABASE_URL, DATA_DIR, ADMIN_TOKEN, ...).
On PostgreSQL it works on the database directly. On the embedded database it goes through the
running gateway's administration API (its own listener with ADMIN_PORT) when a gateway holds
DATA_DIR, and opens it otherwise.
`;
