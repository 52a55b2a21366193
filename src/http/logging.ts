import type { FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';
import { maskPanLikeDigits } from '../domain/redact.js';

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

/** Method and path only: query strings are dropped and PAN-like digit runs masked. */
function serializeRequest(request: FastifyRequest) {
  const path = (request.url ?? '').split('?')[0] ?? '';
  return { method: request.method, path: maskPanLikeDigits(path), remoteAddress: request.ip };
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    serializers: { req: serializeRequest as never },
  };
}
