import type { IsoMessage } from '../../src/connectors/iso8583/message.js';
import { responseMti } from '../../src/connectors/iso8583/message.js';
import { Ledger, type EntryKind, type LedgerEntry } from './ledger.js';
import { formatPrivateData, parsePrivateData } from '../../src/connectors/iso8583/private-data.js';
import { decide, verificationResults, type Behaviour, type DecisionRow } from './table.js';

export interface HostAnswer {
  readonly answer: IsoMessage | null;
  readonly behaviour: Behaviour;
}

/** The host's counters for STAN-independent references: auth codes and RRNs. */
export interface HostState {
  readonly ledger: Ledger;
  readonly clock: () => Date;
  /** Merchant reversals answered, by their gateway id → the original's: a repeated 0400 gets the same answer. */
  readonly reversals: Map<string, string>;
  sequence: number;
}

const ECHOED = [3, 4, 7, 11, 12, 13, 41, 42, 49] as const;

/** The host's answer to one request; null for messages it ignores (answers and unknown types). */
export function handleMessage(request: IsoMessage, state: HostState): HostAnswer {
  const kind = requestKind(request);
  if (kind === 'network') return normal(answerTo(request, '00', { 70: request.fields[70] }));
  if (kind === 'advice') return normal(answerTo(request, adviseReversal(request, state), {}));
  if (kind === 'reversal') return { ...reverse(request, state), behaviour: 'normal' };
  if (kind === null) return normal(null);
  return money(request, kind, state);
}

function normal(answer: IsoMessage | null): HostAnswer {
  return { answer, behaviour: 'normal' };
}

function requestKind(request: IsoMessage): EntryKind | 'network' | 'advice' | 'reversal' | null {
  const processing = (request.fields[3] ?? '000000').slice(0, 2);
  switch (request.mti) {
    case '0800':
      return 'network';
    case '0420':
    case '0421':
      return 'advice';
    case '0400':
      return 'reversal';
    case '0100':
      return 'authorization';
    case '0220':
      return 'completion';
    case '0200':
      return processing === '20' ? 'refund' : processing === '26' ? 'credit' : 'purchase';
    default:
      return null;
  }
}

/** An empty response code: the answer goes without field 39 (a test trigger of the table). */
function answerTo(request: IsoMessage, responseCode: string, extra: Record<number, string | undefined>): IsoMessage {
  const fields: Record<number, string> = {};
  for (const number of ECHOED) if (request.fields[number] !== undefined) fields[number] = request.fields[number]!;
  for (const [number, value] of Object.entries(extra)) if (value !== undefined) fields[Number(number)] = value;
  if (responseCode !== '') fields[39] = responseCode;
  return { mti: responseMti(request.mti), fields };
}

/** A payment, capture, refund or credit: decided by the table and the original's state, booked once per gateway id. */
function money(request: IsoMessage, kind: EntryKind, state: HostState): HostAnswer {
  const data = parsePrivateData(request.fields[48]);
  const gatewayId = data['GW'] ?? '';
  const amountMinor = BigInt(request.fields[4] ?? '0');
  const row = decide(amountMinor, request.fields[2]);
  // A request sent again (the same gateway id) is answered as the first time, never booked twice.
  const known = state.ledger.get(gatewayId);
  const entry = known ?? book(request, kind, row, data, state);
  const advice = entry.approved ? undefined : row.merchantAdvice;
  // Field 4 answers what was booked: the request's amount unless the table approves another.
  const fields = { 4: entry.amountMinor.toString().padStart(12, '0'), 37: entry.rrn, 38: entry.approved ? entry.authCode : undefined, 44: verificationResults(data['ZIP'] !== undefined, request.fields[126]), 48: formatPrivateData({ GW: gatewayId, MAC: advice, TID: schemeIdOf(kind, entry) }) };
  return { answer: answerTo(request, entry.responseCode, fields), behaviour: known ? 'normal' : row.behaviour };
}

function book(request: IsoMessage, kind: EntryKind, row: DecisionRow, data: Readonly<Record<string, string>>, state: HostState): LedgerEntry {
  state.sequence += 1;
  const amountMinor = row.answeredAmountMinor ?? BigInt(request.fields[4] ?? '0');
  const approves = row.responseCode === '00' || row.booked === true;
  const check = approves ? originalCheck(kind, data['ORIG'], amountMinor, request.fields[49], state) : null;
  // A row that books under another code keeps it (or its missing field 39) once the original checks pass.
  const responseCode = check === null || check === '00' ? (row.responseCode ?? '') : check;
  const entry: LedgerEntry = {
    gatewayTransactionId: data['GW'] ?? `host-${state.sequence}`,
    ...(data['ORIG'] ? { originalTransactionId: data['ORIG'] } : {}),
    kind,
    mti: request.mti,
    stan: request.fields[11] ?? '',
    // Every booking gets the host's own RRN (a capture quotes its authorisation's, which must stay that one's).
    rrn: rrnOf(state),
    authCode: `A${String(state.sequence % 100_000).padStart(5, '0')}`,
    responseCode,
    approved: check === '00',
    amountMinor,
    currencyNumeric: request.fields[49] ?? '',
    panLast4: (request.fields[2] ?? '').slice(-4),
    at: state.clock(),
    chargeback: row.chargeback === true && check === '00',
  };
  state.ledger.add(entry);
  return entry;
}

/** Captures need an open authorisation, refunds a settled payment; neither may exceed the original. */
function originalCheck(kind: EntryKind, originalId: string | undefined, amountMinor: bigint, currency: string | undefined, state: HostState): string {
  if (kind !== 'completion' && kind !== 'refund') return '00';
  const original = originalId === undefined ? undefined : state.ledger.get(originalId);
  if (!original || !state.ledger.charged(original.gatewayTransactionId)) return '25';
  const parentKinds: readonly EntryKind[] = kind === 'completion' ? ['authorization'] : ['purchase', 'completion'];
  if (!parentKinds.includes(original.kind) || original.currencyNumeric !== currency) return '12';
  return state.ledger.childrenTotal(original.gatewayTransactionId, kind) + amountMinor > original.amountMinor ? '13' : '00';
}

/** The network's transaction id of an approved authorisation or purchase (15 digits, from the host's sequence). */
function schemeIdOf(kind: EntryKind, entry: LedgerEntry): string | undefined {
  if (!entry.approved || (kind !== 'authorization' && kind !== 'purchase')) return undefined;
  return `9${entry.rrn}`.padEnd(15, '0');
}

function rrnOf(state: HostState): string {
  const now = state.clock();
  const dayOfYear = Math.floor((now.getTime() - Date.UTC(now.getUTCFullYear(), 0, 0)) / 86_400_000);
  return `${String(now.getUTCFullYear() % 10)}${String(dayOfYear).padStart(3, '0')}${String(state.sequence % 100_000_000).padStart(8, '0')}`;
}

/** The gateway never had an answer: whatever was booked under that id is undone. Always acknowledged. */
function adviseReversal(request: IsoMessage, state: HostState): string {
  const gatewayId = parsePrivateData(request.fields[48])['ORIG'];
  const entry = gatewayId === undefined ? undefined : state.ledger.get(gatewayId);
  if (entry && entry.approved && entry.reversedAt === undefined) {
    entry.reversedAt = state.clock();
    entry.reversedBy = 'advice';
  }
  return '00';
}

/** A merchant's void: the original must still be charged. Answered again the same for the same gateway id. */
function reverse(request: IsoMessage, state: HostState): { answer: IsoMessage } {
  const data = parsePrivateData(request.fields[48]);
  const original = data['ORIG'] === undefined ? undefined : state.ledger.get(data['ORIG']);
  const gatewayId = data['GW'];
  const repeated = gatewayId !== undefined && original?.reversedBy === 'reversal' && state.reversals.get(gatewayId) === original.gatewayTransactionId;
  let code = '25';
  if (repeated) code = '00';
  else if (original && state.ledger.charged(original.gatewayTransactionId)) {
    original.reversedAt = state.clock();
    original.reversedBy = 'reversal';
    if (gatewayId !== undefined) state.reversals.set(gatewayId, original.gatewayTransactionId);
    code = '00';
  }
  return { answer: answerTo(request, code, { 37: original?.rrn, 48: formatPrivateData({ GW: gatewayId }) }) };
}
