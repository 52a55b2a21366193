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

/** `yyyy-MM-dd HH:mm:ss.SSS+0000`, always UTC, as the public interface writes it. */
export function formatTimestamp(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}+0000`
  );
}

/** A fresh per-request id; also used as the log request id so a support case finds its log lines. */
export function newRequestId(): string {
  // The pooled source: one getrandom call per 256 requests instead of one each.
  return randomIds.id();
}

/** `<entityId>_<32 hex>` once the entity is known, else the bare request id. */
export function formatNdc(requestId: string, entityId: string | undefined): string {
  return entityId ? `${entityId}_${requestId}` : requestId;
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
