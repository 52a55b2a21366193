import { isPendingCode, isSuccessCode, resultCodes } from '../results/catalogue.js';
import { AVS_RESPONSES, CVV_RESPONSES, type AvsResponse, type CardInfo, type ConnectorOutcome, type CvvResponse, type RedirectInstruction } from './connector.js';
import type { ConnectorCallOutcome } from '../observability/observer.js';

/**
 * What the gateway makes of a connector's answer before it stores it (the port is in
 * connector.ts): anything unknown, malformed or inconsistent becomes pending, never a success,
 * and no detail or redirect that quotes the request's card or account number survives.
 */

/** An outcome the gateway can store: `unknown` and anything malformed have become pending. */
export interface NormalizedOutcome extends ConnectorOutcome {
  readonly kind: 'success' | 'declined' | 'pending';
  /** Why the connector's answer was replaced by pending; for logs, never for clients. */
  readonly normalizedBecause?: string;
}

export interface NormalizeOptions {
  /** Card or account numbers of the request: a detail that contains one is dropped. */
  readonly secretNumbers?: readonly string[];
}

const PENDING_CODE = '000.200.000';
const DETAIL_NAME = /^[a-zA-Z0-9._]{3,64}$/;
const DETAIL_VALUE_MAX_LENGTH = 2048;
// Shorter "secrets" (a CVV) would match innocent references by chance.
const SECRET_MIN_LENGTH = 8;

/**
 * Turns whatever a connector returned into an outcome the gateway may store. Anything unknown,
 * unexpected or inconsistent becomes pending 000.200.000, never success: a payment wrongly left
 * pending is found by reconciliation, a payment wrongly marked successful ships goods unpaid.
 */
export function normalizeOutcome(raw: unknown, options: NormalizeOptions = {}): NormalizedOutcome {
  if (!isRecord(raw)) return pendingBecause('outcome is not an object', {});
  const secrets = (options.secretNumbers ?? []).filter((secret) => secret.length >= SECRET_MIN_LENGTH);
  const resultDetails = cleanResultDetails(raw.resultDetails, secrets);
  const problem = inconsistency(raw.kind, raw.code);
  if (problem !== null) return pendingBecause(problem, resultDetails);
  return {
    kind: raw.kind as NormalizedOutcome['kind'],
    code: raw.code as string,
    resultDetails,
    ...optionalFields(raw, secrets),
  };
}

export interface CallOptions extends NormalizeOptions {
  /** After this long without an answer the outcome is unknown (pending), never a success. */
  readonly timeoutMs?: number | undefined;
  /** Told how the call went and how long it took (ConnectorRouter.call reports it to the metrics). */
  readonly report?: ((outcome: ConnectorCallOutcome, durationSeconds: number) => void) | undefined;
}

/** How long a connector may take when the caller names no limit (CONNECTOR_TIMEOUT_MS). */
export const DEFAULT_CONNECTOR_TIMEOUT_MS = 60_000;

const NO_ANSWER = Symbol('no answer in time');

/**
 * Calls a connector and normalizes its answer; a throw or no answer in time becomes pending,
 * since the call may have reached the acquirer. The pending-resolution job finds out later.
 */
export async function callConnector(call: () => Promise<unknown>, options: CallOptions = {}): Promise<NormalizedOutcome> {
  let raw: unknown;
  let timer: NodeJS.Timeout | undefined;
  const started = options.report ? performance.now() : 0;
  const deadline = new Promise<typeof NO_ANSWER>((resolve) => {
    timer = setTimeout(() => resolve(NO_ANSWER), options.timeoutMs ?? DEFAULT_CONNECTOR_TIMEOUT_MS);
  });
  try {
    raw = await Promise.race([call(), deadline]);
  } catch (error) {
    options.report?.('error', (performance.now() - started) / 1000);
    // Only the error's class: its message could quote request data.
    return pendingBecause(`connector threw ${error instanceof Error ? error.name : typeof error}`, {});
  } finally {
    clearTimeout(timer);
  }
  if (raw === NO_ANSWER) {
    options.report?.('timeout', (performance.now() - started) / 1000);
    return pendingBecause('connector did not answer in time', {});
  }
  const outcome = normalizeOutcome(raw, options);
  options.report?.(callOutcomeOf(raw, outcome), (performance.now() - started) / 1000);
  return outcome;
}

/** The connector's own "timeout, uncertain result": its acquirer did not answer (ISO 8583, the simulator's 9.99). */
const ACQUIRER_TIMEOUT_CODE = '900.100.300';

/**
 * How a call that answered went, for the connector metrics: what the connector said, with its
 * unknowns split into timeouts and the rest, and answers that say nothing usable (unreadable, or
 * nothing processed at all) as errors, which is what a connector's error-ratio alert watches.
 */
function callOutcomeOf(raw: unknown, outcome: NormalizedOutcome): ConnectorCallOutcome {
  if (isRecord(raw) && raw.kind === 'unknown') return raw.code === ACQUIRER_TIMEOUT_CODE ? 'timeout' : 'unknown';
  if (outcome.normalizedBecause !== undefined) return 'error';
  if (outcome.kind === 'declined' && outcome.notProcessed) return 'error';
  return outcome.kind;
}

function inconsistency(kind: unknown, code: unknown): string | null {
  if (typeof code !== 'string' || !resultCodes.has(code)) return 'code is not in the catalogue';
  switch (kind) {
    case 'success':
      return isSuccessCode(code) ? null : 'success with a code that is not a success code';
    case 'pending':
      return isPendingCode(code) ? null : 'pending with a code that is not a pending code';
    case 'declined':
      return isSuccessCode(code) || isPendingCode(code) ? 'declined with a success or pending code' : null;
    case 'unknown':
      return `outcome unknown (${code})`;
    default:
      return 'kind is not one of success, declined, pending, unknown';
  }
}

function pendingBecause(reason: string, resultDetails: Readonly<Record<string, string>>): NormalizedOutcome {
  return { kind: 'pending', code: PENDING_CODE, resultDetails, normalizedBecause: reason };
}

function cleanResultDetails(raw: unknown, secrets: readonly string[]): Readonly<Record<string, string>> {
  if (!isRecord(raw)) return {};
  const details: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!DETAIL_NAME.test(name) || typeof value !== 'string' || value.length > DETAIL_VALUE_MAX_LENGTH) continue;
    if (containsSecret(value, secrets)) continue;
    details[name] = value;
  }
  return details;
}

type OptionalOutcomeFields = Pick<ConnectorOutcome, 'avsResponse' | 'cvvResponse' | 'schemeTransactionId' | 'card' | 'redirect' | 'notProcessed'>;

const REDIRECT_PARAMETERS_MAX = 50;

/** A redirect only goes with a pending outcome, to an absolute http(s) URL, with plain text parameters. */
function cleanRedirect(kind: unknown, raw: unknown, secrets: readonly string[]): RedirectInstruction | undefined {
  if (kind !== 'pending' || !isRecord(raw) || typeof raw.url !== 'string' || (raw.method !== 'GET' && raw.method !== 'POST')) return undefined;
  if (!/^https?:\/\/[^\s]+$/.test(raw.url) || raw.url.length > DETAIL_VALUE_MAX_LENGTH || containsSecret(raw.url, secrets)) return undefined;
  const parameters = Array.isArray(raw.parameters) ? raw.parameters : [];
  const clean = parameters.filter(
    (p): p is { name: string; value: string } =>
      isRecord(p) && typeof p.name === 'string' && typeof p.value === 'string' && p.value.length <= DETAIL_VALUE_MAX_LENGTH && !containsSecret(p.value, secrets),
  );
  if (clean.length !== parameters.length || clean.length > REDIRECT_PARAMETERS_MAX) return undefined;
  return { url: raw.url, method: raw.method, parameters: clean.map((p) => ({ name: p.name, value: p.value })) };
}

function optionalFields(raw: Record<string, unknown>, secrets: readonly string[]): OptionalOutcomeFields {
  const fields: { -readonly [K in keyof OptionalOutcomeFields]?: OptionalOutcomeFields[K] } = {};
  if (AVS_RESPONSES.includes(raw.avsResponse as AvsResponse)) fields.avsResponse = raw.avsResponse as AvsResponse;
  if (CVV_RESPONSES.includes(raw.cvvResponse as CvvResponse)) fields.cvvResponse = raw.cvvResponse as CvvResponse;
  const scheme = raw.schemeTransactionId;
  if (typeof scheme === 'string' && /^[\x21-\x7e]{1,128}$/.test(scheme) && !containsSecret(scheme, secrets)) {
    fields.schemeTransactionId = scheme;
  }
  const card = cleanCardInfo(raw.card);
  if (card) fields.card = card;
  const redirect = cleanRedirect(raw.kind, raw.redirect, secrets);
  if (redirect) fields.redirect = redirect;
  // Only a decline can say nothing was processed: a fallback after a possible approval could charge twice.
  if (raw.kind === 'declined' && raw.notProcessed === true) fields.notProcessed = true;
  return fields;
}

function cleanCardInfo(raw: unknown): CardInfo | undefined {
  if (!isRecord(raw)) return undefined;
  const type = ['CREDIT', 'DEBIT', 'PREPAID'].includes(raw.type as string) ? (raw.type as CardInfo['type']) : undefined;
  const level = shortText(raw.level);
  const issuer = isRecord(raw.issuer)
    ? { bank: shortText(raw.issuer.bank), phone: shortText(raw.issuer.phone), website: shortText(raw.issuer.website) }
    : undefined;
  const regulated = typeof raw.regulated === 'boolean' ? raw.regulated : undefined;
  const info = dropUndefined({ type, level, issuer: issuer && dropUndefined(issuer), regulated });
  return Object.keys(info).length > 0 ? info : undefined;
}

function shortText(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= DETAIL_VALUE_MAX_LENGTH ? value : undefined;
}

function dropUndefined<T extends object>(value: T): T {
  const kept: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(value)) if (entry !== undefined) kept[name] = entry;
  return kept as T;
}

function containsSecret(value: string, secrets: readonly string[]): boolean {
  const digits = value.replace(/[^0-9]/g, '');
  return secrets.some((secret) => value.includes(secret) || digits.includes(secret));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
