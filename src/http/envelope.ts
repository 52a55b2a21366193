import { randomIds } from '../domain/ids.js';
import { resultCode } from '../results/catalogue.js';
import type { ParameterError } from '../results/gateway-error.js';

/** The fields every response carries besides its own: result, buildNumber, timestamp, ndc. */
export interface ResultBody {
  code: string;
  description: string;
  parameterErrors?: readonly ParameterError[];
  avsResponse?: string;
  cvvResponse?: string;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/**
 * `yyyy-MM-dd HH:mm:ss+0000`, always UTC: the specification's `yyyy-MM-dd hh:mm:ssZ` (Z the
 * numeric zone, as in Java's date patterns), on a 24-hour clock as the public interface's answers
 * show (`13:43:44`); the milliseconds the public interface sometimes adds are left out
 * (docs/compatibility.md, "Envelope forms").
 */
export function formatTimestamp(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}+0000`
  );
}

/** A fresh per-request id; also used as the log request id so a support case finds its log lines. */
export function newRequestId(): string {
  // The pooled source: one getrandom call per 256 requests instead of one each.
  return randomIds.id();
}

/**
 * `<entityId>-<32 hex>` once the entity is known, else the bare request id: the specification's
 * ndc is `a-z A-Z 0-9 -` (the public interface's `_` separator is not in it), at most 69 characters.
 */
export function formatNdc(requestId: string, entityId: string | undefined): string {
  return entityId ? `${entityId}-${requestId}` : requestId;
}

/**
 * The `id` of an error that created nothing: the request's own id (the same 32 characters its ndc
 * ends with and its log line carries), fresh for every request as OPPWA answers, so every error
 * body has the specification's shape (buildNumber, id, ndc, result, timestamp) and a support case
 * finds the request by it. An error about a transaction that exists keeps that transaction's id.
 */
export function withErrorId<T extends object>(status: number, body: T, requestId: string): T | (T & { id: string }) {
  return status >= 400 && !('id' in body) ? Object.assign({ id: requestId }, body) : body;
}

export function resultOf(code: string, extra: Omit<ResultBody, 'code' | 'description'> = {}): ResultBody {
  return { code, description: resultCode(code).description, ...extra };
}

export interface EnvelopeContext {
  readonly buildNumber: string;
  readonly now: Date;
  readonly ndc: string;
  /** Names left out under the entity's 'ignore' setting: listed so that nothing is lost silently. */
  readonly ignoredParameters?: readonly string[] | undefined;
}

/**
 * Places the envelope fields after the resource's own fields, in the order the public interface
 * uses, so that responses read the same as theirs.
 */
export function withEnvelope<T extends object>(body: T, result: ResultBody, context: EnvelopeContext): T & Record<'result' | 'buildNumber' | 'timestamp' | 'ndc', unknown> {
  // { ...body, result, … } without its slow path: Node 20's V8 adds each property written
  // after a spread slowly (about 2 µs each; docs/performance.md).
  return Object.assign({}, body, { result }, envelopeFields(context));
}

function envelopeFields(context: EnvelopeContext) {
  const fields = { buildNumber: context.buildNumber, timestamp: formatTimestamp(context.now), ndc: context.ndc };
  return context.ignoredParameters?.length ? Object.assign(fields, { ignoredParameters: context.ignoredParameters }) : fields;
}

/** The media type Fastify gives a serialised object; a body sent as text must say the same. */
export const JSON_MEDIA_TYPE = 'application/json; charset=utf-8';

/**
 * withEnvelope for a body already serialised with its result (a payment's stored form): the
 * same text JSON.stringify(withEnvelope(body, result, context)) gives, without copying and
 * serialising the body again.
 */
export function withEnvelopeJson(bodyWithResultJson: string, context: EnvelopeContext): string {
  // The text is an object with at least its result: dropping its closing brace leaves fields to add to.
  const envelope = JSON.stringify(envelopeFields(context)).slice(1);
  return `${bodyWithResultJson.slice(0, -1)},${envelope}`;
}
