import type { FastifyInstance, FastifyRequest } from 'fastify';
import { containsCardNumber } from '../domain/card-numbers-in-text.js';
import { maskPanLikeDigits } from '../domain/redact.js';
import { isPendingCode, isSuccessCode, resultCodes } from '../results/catalogue.js';
import type { ResultBody } from './envelope.js';

/**
 * What a request's completion line says about the payment (docs/observability.md, Logs), noted
 * where the answer is built rather than parsed back out of the body that was sent.
 */
export interface RequestLogFacts {
  /** The answer's result, as sent (its parameterErrors already masked). */
  result?: Pick<ResultBody, 'code' | 'parameterErrors'>;
  /** The payment the request created, read or acted on. */
  transactionId?: string;
  /** The payment a CP, RF or RV refers to. */
  referencedId?: string;
  /** The checkout the answer is about (one just created has no id in its path). */
  checkoutId?: string;
  /** The trace and span active when the request began (request-log-line.ts). */
  trace?: { readonly traceId: string; readonly spanId: string };
}

/** Where a route's path or query names a checkout (checkouts.ts, widget.ts): its line carries checkoutId. */
export type CheckoutIdSource = 'params' | 'query';

declare module 'fastify' {
  interface FastifyRequest {
    /** Noted while the answer is built; read once, by the completion line (request-log-line.ts). */
    logFacts: RequestLogFacts | undefined;
  }
  interface FastifyContextConfig {
    checkoutIdIn?: CheckoutIdSource;
  }
}

export function registerRequestLogFacts(app: FastifyInstance): void {
  app.decorateRequest('logFacts', undefined);
}

function factsOf(request: FastifyRequest): RequestLogFacts {
  return (request.logFacts ??= {});
}

/** The result the request answers with; a later answer (an error after all) replaces it. */
export function noteResult(request: FastifyRequest, result: Pick<ResultBody, 'code' | 'parameterErrors'>): void {
  factsOf(request).result = result;
}

/**
 * An id the client sent (a path segment that passed its pattern) as the log may show it: a
 * 32-character id can still hold a card number, and then the line goes without it. Ids the
 * gateway made need no check.
 */
export function loggableId(sent: string | undefined): string | undefined {
  return sent === undefined || containsCardNumber(sent) ? undefined : sent;
}

/** The payment ids of a payment's answer (or of a path, through loggableId): only strings, so a body of any shape is safe to pass. */
export function noteTransaction(request: FastifyRequest, ids: { readonly id?: unknown; readonly referencedId?: unknown }): void {
  const facts = factsOf(request);
  if (typeof ids.id === 'string') facts.transactionId = ids.id;
  if (typeof ids.referencedId === 'string') facts.referencedId = ids.referencedId;
}

export function noteCheckout(request: FastifyRequest, checkoutId: string): void {
  factsOf(request).checkoutId = checkoutId;
}

/** Enough names to say what failed; a request with hundreds of unknown parameters is summed up. */
export const MAX_LOGGED_PARAMETER_NAMES = 20;

export interface ResultLogFields {
  resultCode: string;
  /** The catalogue's description of a refusal or decline; absent on success and pending. */
  reason?: string;
  /** The names of the parameters that failed, never their values. */
  failedParameters?: readonly string[];
  /** How many failed when more than MAX_LOGGED_PARAMETER_NAMES did. */
  failedParameterCount?: number;
}

/**
 * A result as the log shows it. Names only: a value may hold a card number, and a name is what
 * the client sent too (an unknown parameter named like a card number), so digit runs are masked.
 */
export function resultLogFields(result: Pick<ResultBody, 'code' | 'parameterErrors'>): ResultLogFields {
  const { code } = result;
  const fields: ResultLogFields = { resultCode: code };
  if (isSuccessCode(code) || isPendingCode(code)) return fields;
  const description = resultCodes.get(code)?.description;
  if (description !== undefined) fields.reason = description;
  const errors = result.parameterErrors;
  if (errors && errors.length > 0) {
    fields.failedParameters = errors.slice(0, MAX_LOGGED_PARAMETER_NAMES).map((error) => maskPanLikeDigits(error.name).slice(0, 64));
    if (errors.length > MAX_LOGGED_PARAMETER_NAMES) fields.failedParameterCount = errors.length;
  }
  return fields;
}
