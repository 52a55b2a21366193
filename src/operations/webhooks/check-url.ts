import { webhookUrlProblem, type WebhookTargetRules } from '../../domain/webhook-url.js';
import { invalidParameter } from './webhook-errors.js';

export const MAX_NOTIFICATION_URL_LENGTH = 2048;

/** An absolute http(s) URL; returns it unchanged, or throws 200.300.404 naming the parameter. */
export function checkNotificationUrl(name: string, raw: string): string {
  const fail = (message: string) => invalidParameter(name, raw, message);
  if (raw.length === 0 || raw.length > MAX_NOTIFICATION_URL_LENGTH) throw fail(`must be 1 to ${MAX_NOTIFICATION_URL_LENGTH} characters`);
  if (/\s/.test(raw)) throw fail('must not contain white space');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail('must be an absolute http or https URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') throw fail('must be an absolute http or https URL');
  return raw;
}

/**
 * A URL a notification may be sent to: well formed, https on the live system, no user:password@,
 * and no refused address written in it. A host name is judged at each delivery instead (its
 * addresses may change). Throws 200.300.404 naming the parameter.
 */
export function checkTargetUrl(name: string, raw: string, rules: WebhookTargetRules): string {
  checkNotificationUrl(name, raw);
  const problem = webhookUrlProblem(raw, rules);
  if (problem) throw invalidParameter(name, raw, problem);
  return raw;
}
