import { accountLast4 } from '../domain/bank.js';
import { cardBin, cardLast4 } from '../domain/card.js';
import { formatAmount } from '../domain/money.js';
import { CATALOGUE } from './catalogue.js';
import { parsePattern } from './names.js';
import type { PaymentRequest } from './request-types.generated.js';
import type { ParameterRow } from './types.js';

/**
 * The request data a payment response echoes: the structures as sent, values back in wire form
 * (amounts with two decimals), and never a secret. Card and bank account appear only as
 * recognisable summaries. Request controls (entityId, testMode, URLs) and the 3D Secure CAVV
 * (threeDSecure.verificationId, sensitive authentication data) are not echoed.
 */

export type EchoValue = string | EchoObject | readonly EchoValue[];
export interface EchoObject {
  [key: string]: EchoValue;
}

interface SchemaNode {
  readonly children: Map<string, SchemaNode>;
  row?: ParameterRow;
  item?: SchemaNode;
  mapValue?: SchemaNode;
}

const newSchemaNode = (): SchemaNode => ({ children: new Map() });

function buildSchema(rows: readonly ParameterRow[]): SchemaNode {
  const root = newSchemaNode();
  for (const row of rows) {
    let node = root;
    for (const segment of parsePattern(row.name)) {
      if (segment.kind === 'index') node = node.item ??= newSchemaNode();
      else if (segment.kind === 'mapKey') node = node.mapValue ??= newSchemaNode();
      else {
        let child = node.children.get(segment.key);
        if (!child) node.children.set(segment.key, (child = newSchemaNode()));
        node = child;
      }
    }
    node.row ??= row;
  }
  return root;
}

const SCHEMA = buildSchema(CATALOGUE);

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function formatDate(date: Date, kind: ParameterRow['format']['kind']): string {
  const day = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  if (kind === 'date') return day;
  const time = `${day} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return kind === 'timestamp' ? `${time}+0000` : time;
}

function wireValue(row: ParameterRow, value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return formatAmount(value);
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : formatDate(value, row.format.kind);
  if (Array.isArray(value)) return value.join(',');
  return undefined;
}

function echoNode(node: SchemaNode, value: unknown): EchoValue | undefined {
  if (node.row) return node.row.secret || !node.row.echo ? undefined : wireValue(node.row, value);
  if (node.item) {
    if (!Array.isArray(value)) return undefined;
    const items = value.map((item) => echoNode(node.item!, item)).filter((item): item is EchoValue => item !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const echoed: EchoObject = {};
  for (const key of Object.keys(value)) {
    const child = node.mapValue ?? node.children.get(key);
    const result = child && echoNode(child, (value as Record<string, unknown>)[key]);
    if (result !== undefined) echoed[key] = result;
  }
  return Object.keys(echoed).length > 0 ? echoed : undefined;
}

/** Copies the named keys that are set, as strings. */
function pick(source: Readonly<Record<string, unknown>>, keys: readonly string[]): EchoObject {
  const picked: EchoObject = {};
  for (const key of keys) if (typeof source[key] === 'string') picked[key] = source[key] as string;
  return picked;
}

function nonEmpty(value: EchoObject): EchoObject | undefined {
  return Object.keys(value).length > 0 ? value : undefined;
}

/** Summaries of account data: what a human needs to recognise the account, nothing more. */
type Summary = (account: Readonly<Record<string, unknown>>) => EchoObject | undefined;

const ACCOUNT_SUMMARIES: ReadonlyMap<string, Summary> = new Map<string, Summary>(Object.entries({
  card: (card: Readonly<Record<string, unknown>>) => {
    const number = typeof card['number'] === 'string' ? card['number'] : undefined;
    const digits: EchoObject = number ? { bin: cardBin(number), last4Digits: cardLast4(number) } : {};
    // Object.assign, not two spreads: Node 20's V8 adds each property written after a
    // spread slowly (about 2 µs each; docs/performance.md).
    return nonEmpty(Object.assign(digits, pick(card, ['holder', 'expiryMonth', 'expiryYear'])));
  },
  bankAccount: (account: Readonly<Record<string, unknown>>) => {
    const identifier = [account['iban'], account['number']].find((value): value is string => typeof value === 'string');
    const mandate = echoNode(SCHEMA.children.get('bankAccount')!.children.get('mandate')!, account['mandate']);
    return nonEmpty({
      ...pick(account, ['holder', 'bankName', 'bic', 'bankCode', 'country']),
      ...(identifier ? { last4Digits: accountLast4(identifier) } : {}),
      ...(mandate ? { mandate } : {}),
    });
  },
  tokenAccount: (account: Readonly<Record<string, unknown>>) => {
    const number = typeof account['number'] === 'string' ? account['number'] : undefined;
    return nonEmpty({ ...pick(account, ['type', 'expiryMonth', 'expiryYear']), ...(number ? { last4Digits: cardLast4(number) } : {}) });
  },
}));

/** The echoed request structures for a response; safe to serialise as they are. */
export function echoRequest(request: PaymentRequest): EchoObject {
  const echoed: EchoObject = {};
  const source = request as unknown as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(source)) {
    const summary = ACCOUNT_SUMMARIES.get(key);
    const child = SCHEMA.children.get(key);
    const raw = source[key];
    const isObject = typeof raw === 'object' && raw !== null;
    const value = summary ? (isObject ? summary(raw as Readonly<Record<string, unknown>>) : undefined) : child && echoNode(child, raw);
    if (value !== undefined) echoed[key] = value;
  }
  return echoed;
}
