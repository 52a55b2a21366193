import { GatewayError } from '../../results/gateway-error.js';
import type { AttemptResult } from './attempt-delivery.js';

const SHOWN_VALUE_LENGTH = 64;

function notFound(name: string, value: string, message: string): GatewayError {
  return new GatewayError('200.300.404', { httpStatus: 404, parameterErrors: [{ name, value: value.slice(0, SHOWN_VALUE_LENGTH), message }] });
}

export const webhookNotFound = (id: string) => notFound('webhookId', id, 'no webhook has this id');
export const deliveryNotFound = (id: string) => notFound('deliveryId', id, 'no webhook delivery has this id');

export function entityNotFound(id: string): GatewayError {
  return new GatewayError('200.300.406', {
    httpStatus: 404,
    parameterErrors: [{ name: 'entity', value: id.slice(0, SHOWN_VALUE_LENGTH), message: 'no entity has this id' }],
  });
}

export function invalidParameter(name: string, value: string, message: string): GatewayError {
  return new GatewayError('200.300.404', { parameterErrors: [{ name, value: value.slice(0, 256), message }] });
}

/** A URL without its query and fragment: a 5xx answer's error is logged, and a query may carry a merchant's secret. */
function withoutQuery(url: string): string {
  return url.replace(/[?#].*$/s, '');
}

/** The receiver did not acknowledge a notification sent on the operator's request. */
export function notAcknowledged(url: string, attempt: AttemptResult): GatewayError {
  const answer = attempt.httpStatus !== null ? `HTTP ${attempt.httpStatus}` : (attempt.error ?? 'no answer');
  return new GatewayError('900.100.100', {
    httpStatus: 502,
    parameterErrors: [{ name: 'url', value: withoutQuery(url).slice(0, 256), message: `the test notification was not acknowledged: ${answer}` }],
  });
}
