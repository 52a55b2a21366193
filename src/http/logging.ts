import type { FastifyRequest } from 'fastify';
import { stdSerializers, type LoggerOptions } from 'pino';
import { maskPanLikeDigitsInUrl } from '../domain/redact.js';

/**
 * Secret fields wherever they appear in a logged object. Request bodies are never logged, so
 * these guard the other ways data reaches a log line (errors, objects a handler logs).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'accessToken',
  'token',
  'password',
  'secret',
  '*.accessToken',
  '*.password',
  '*.secret',
  '["card.number"]',
  '["card.cvv"]',
  '["authentication.password"]',
  '*["authentication.password"]',
  '["bankAccount.iban"]',
  '["bankAccount.number"]',
  '["tokenAccount.number"]',
  '["tokenAccount.cryptogram"]',
  '*["card.number"]',
  '*["card.cvv"]',
  '*["bankAccount.iban"]',
  '*["bankAccount.number"]',
  'card.number',
  'card.cvv',
  '*.card.number',
  '*.card.cvv',
  'bankAccount.iban',
  'bankAccount.number',
];

/** Method and path only: query strings are dropped and PAN-like digit runs masked, percent-encoded or not. */
function serializeRequest(request: FastifyRequest) {
  const path = (request.url ?? '').split('?')[0] ?? '';
  return { method: request.method, path: maskPanLikeDigitsInUrl(path), remoteAddress: request.ip };
}

/** A query string quoted in free text (an error message naming the URL), up to the next space or quote. */
const QUOTED_QUERY = /\?[^\s'"`]+/g;

function scrubText(text: string): string {
  return maskPanLikeDigitsInUrl(text.replace(QUOTED_QUERY, '?[query removed]'));
}

/**
 * Errors may quote the request: Fastify's messages name the URL, Node's parser errors carry the
 * raw bytes (rawPacket). Query strings are dropped, PAN-like digits masked, raw bytes left out.
 */
function serializeError(error: Error) {
  const serialized: Record<string, unknown> = { ...stdSerializers.err(error) };
  delete serialized['rawPacket'];
  for (const [key, value] of Object.entries(serialized)) if (typeof value === 'string') serialized[key] = scrubText(value);
  return serialized;
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    serializers: { req: serializeRequest as never, err: serializeError },
  };
}
