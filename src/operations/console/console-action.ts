import { createHash } from 'node:crypto';
import type { Actor, Visibility } from '../../domain/access/actor.js';
import { GatewayError } from '../../results/gateway-error.js';

/** A person acting in the console: who (for the audit log) and what they may see. */
export interface ConsoleActor {
  readonly actor: Extract<Actor, { kind: 'user' }>;
  readonly visibility: Visibility;
}

/** What a console action came to: done (with the transaction it made or changed), or refused by the gateway's rules. */
export type ConsoleActionResult =
  | { readonly kind: 'done'; readonly transactionId: string; readonly status: string; readonly resultCode: string; readonly description: string; readonly repeated: boolean }
  | { readonly kind: 'refused'; readonly resultCode: string; readonly description: string };

/** A form's nonce: 128 random bits in hex, made when the page was rendered. */
const NONCE = /^[0-9a-f]{32}$/;

export function invalidField(name: string, value: string, message: string): GatewayError {
  return new GatewayError('200.300.404', { parameterErrors: [{ name, value: value.slice(0, 64), message }] });
}

/**
 * The Idempotency-Key claim of a console action: derived from the person, what the form acts on
 * and its nonce, so submitting one rendered form twice (a double click, a resent POST) names the
 * same claim, and the transactions' unique claim index lets only the first write.
 */
export function claimOfNonce(userId: string, subject: string, nonce: string): string {
  if (!NONCE.test(nonce)) throw invalidField('nonce', nonce, 'the form is incomplete: reload the page and try again');
  // The subject (the parent and the action) too: a nonce copied into another form claims afresh.
  return createHash('sha256').update(`console-action:${userId}:${subject}:${nonce}`).digest('hex').slice(0, 32);
}
