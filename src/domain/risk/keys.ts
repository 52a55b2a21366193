import { hash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { VelocityKey } from './facts.js';

/** E-mail addresses differ only in case for risk purposes (their local part rarely does in practice). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A dotted quad already in its one form (no leading zeros, which some parsers read as octal). */
const CANONICAL_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** One form per address: "::ffff:192.0.2.1" and "192.0.2.1" are one shopper; undefined when no IP. */
export function normalizeIp(ip: string): string | undefined {
  const text = ip.trim();
  // Most shoppers' addresses: answered as they are, without parsing them twice (every payment).
  if (CANONICAL_IPV4.test(text)) return text;
  if (!ipaddr.isValid(text)) return undefined;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address().toString();
  return parsed.toNormalizedString();
}

/**
 * The velocity key of a value: a merchant's card (by its fingerprint), e-mail, IP or customer.
 * Hashed so the attempts table holds no e-mail or IP in clear, and scoped to the merchant so
 * one merchant's traffic never counts against another's. 128 bits: collisions are not a concern
 * for counting.
 */
export function velocityKeyHash(merchantId: string, key: VelocityKey, value: string): string {
  // The one-shot hash: a third of createHash's cost for inputs this small, and every payment has several.
  return hash('sha256', `${merchantId}|${key}|${value}`, 'hex').slice(0, 32);
}
