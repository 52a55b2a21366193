import { isCheckoutIdSuffix } from '../domain/checkouts/checkout-id.js';
import { readInteger, readOptional, type Env } from './env-readers.js';

/** How checkouts (POST /v1/checkouts, the widget) live, and how their ids look. */
export interface CheckoutSettings {
  /** A checkout id works this long after its creation, or until paid (the specification: 30 minutes). */
  readonly lifetimeMs: number;
  /** A paid checkout whose status nobody fetched gets its shopper result callback this long after creation (29 minutes). */
  readonly callbackAfterMs: number;
  /** How often the callback sweep looks for due checkouts. */
  readonly callbackSweepIntervalMs: number;
  /** The host part of checkout ids, after the dot. */
  readonly idSuffix: string;
}

export const CHECKOUT_VARIABLES = [
  ['CHECKOUT_LIFETIME_MINUTES', '30', 'A checkout id works this long, or until paid; afterwards it is refused with 200.300.404. The specification says 30; decimals allowed (tests).'],
  ['CHECKOUT_CALLBACK_AFTER_MINUTES', '29', 'When a checkout was paid but the merchant never fetched its status, the gateway sends GET shopperResultUrl?id=…&resourcePath=… this long after the checkout was created. Must be shorter than CHECKOUT_LIFETIME_MINUTES.'],
  ['CHECKOUT_CALLBACK_SWEEP_INTERVAL_MS', '15000', 'How often the callback job looks for checkouts whose callback is due.'],
  ['CHECKOUT_ID_SUFFIX', 'gw01', 'The host suffix of checkout ids (`<32 hex>.<suffix>`): 1 to 15 characters a-z A-Z 0-9 -, e.g. the node that issued them.'],
] as const;

function readMinutesMs(env: Env, name: string, fallbackMinutes: number, problems: string[]): number {
  const raw = readOptional(env, name);
  if (raw === undefined) return fallbackMinutes * 60_000;
  if (!/^[0-9]{1,4}(\.[0-9]{1,3})?$/.test(raw) || Number(raw) < 0.01 || Number(raw) > 1440) {
    problems.push(`${name}=${JSON.stringify(raw)} must be a number of minutes from 0.01 to 1440`);
    return fallbackMinutes * 60_000;
  }
  return Math.round(Number(raw) * 60_000);
}

export function collectCheckoutSettings(env: Env, problems: string[]): CheckoutSettings {
  const lifetimeMs = readMinutesMs(env, 'CHECKOUT_LIFETIME_MINUTES', 30, problems);
  const callbackAfterMs = readMinutesMs(env, 'CHECKOUT_CALLBACK_AFTER_MINUTES', 29, problems);
  // The callback tells the merchant to fetch a status that must still answer.
  if (callbackAfterMs >= lifetimeMs) problems.push('CHECKOUT_CALLBACK_AFTER_MINUTES must be shorter than CHECKOUT_LIFETIME_MINUTES');
  const idSuffix = readOptional(env, 'CHECKOUT_ID_SUFFIX') ?? 'gw01';
  if (!isCheckoutIdSuffix(idSuffix)) problems.push(`CHECKOUT_ID_SUFFIX=${JSON.stringify(idSuffix)} must be 1 to 15 characters a-z A-Z 0-9 -`);
  return Object.freeze({
    lifetimeMs,
    callbackAfterMs,
    callbackSweepIntervalMs: readInteger(env, 'CHECKOUT_CALLBACK_SWEEP_INTERVAL_MS', 15_000, 100, 3_600_000, problems),
    idSuffix,
  });
}
