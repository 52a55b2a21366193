import type { FastifyInstance } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpTimeouts } from '../../config/http-timeouts.js';
import type { ParameterError } from '../../results/gateway-error.js';
import { newRequestId, resultOf, withEnvelope, withErrorId } from '../envelope.js';

/** Node's default --max-http-header-size: the request line and headers together. */
const MAX_HEADER_BYTES = 16_384;

interface ClientError {
  readonly status: number;
  readonly parameterError: ParameterError;
}

/** What Node's parser reports before Fastify sees a request: a 4xx with a field to name. */
function classify(code: string | undefined, timeouts: HttpTimeouts): ClientError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    const message = `headers must arrive within ${timeouts.headersTimeoutMs} ms and the whole request within ${timeouts.requestTimeoutMs} ms`;
    return { status: 408, parameterError: { name: 'request', value: '', message } };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, parameterError: { name: 'headers', value: '', message: `request line and headers must be at most ${MAX_HEADER_BYTES} bytes` } };
  }
  return { status: 400, parameterError: { name: 'request', value: '', message: 'must be well-formed HTTP/1.1' } };
}

/**
 * Node's parser errors (bad framing, overlong headers, timeouts) never reach Fastify's error
 * handler; this answers them with the envelope instead of Fastify's bare JSON. It never logs
 * the error itself: its rawPacket holds the request's bytes, query string and all.
 */
export function clientErrorHandler(timeouts: HttpTimeouts, headers: Readonly<Record<string, string>>) {
  return function handleClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, parameterError } = classify(error.code, timeouts);
    this.log.debug({ code: error.code, status }, 'client error');
    // An answer already under way cannot be replaced; the close tells the client enough.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) socket.write(rawAnswer(this, status, parameterError, headers));
    socket.destroy();
  };
}

function rawAnswer(app: FastifyInstance, status: number, parameterError: ParameterError, headers: Readonly<Record<string, string>>): string {
  const { buildNumber, clock } = app.gateway;
  const result = resultOf('200.100.103', { parameterErrors: [parameterError] });
  // No request was parsed, so no entity: the ndc is the bare id, as on any answer before authentication.
  const requestId = newRequestId();
  const body = JSON.stringify(withEnvelope(withErrorId(status, {}, requestId), result, { buildNumber, now: clock.now(), ndc: requestId }));
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
