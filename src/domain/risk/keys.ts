import { hash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { embeddedIpv4 } from '../ip-address.js';
import type { VelocityKey } from './facts.js';

/** E-mail addresses differ only in case for the test data (docs/risk.md); lists and velocity use canonicalEmail. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A dotted quad already in its one form (no leading zeros, which some parsers read as octal). */
const CANONICAL_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** `[v6]:port`, `[v6]` and `v4:port` (a socket address, as some proxies forward it) name the address alone. */
const BRACKETED = /^\[([^\]]+)\](?::\d{1,5})?$/;
const IPV4_WITH_PORT = /^([0-9a-fA-FxX.]+):\d{1,5}$/;

function withoutPort(text: string): string {
  return BRACKETED.exec(text)?.[1] ?? IPV4_WITH_PORT.exec(text)?.[1] ?? text;
}

/**
 * The IPv4 address a shopper's IPv6 one stands for: the forms embeddedIpv4 knows, and Teredo
 * (2001::/32, RFC 4380), which carries the client's public IPv4 address with every bit inverted in
 * its last 32 bits (no concern of where packets go, so webhook-address.ts leaves it out).
 */
function shopperIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (address.range() !== 'teredo') return embeddedIpv4(address);
  return new ipaddr.IPv4(address.toByteArray().slice(12, 16).map((byte) => ~byte & 0xff));
}

/**
 * One form per address, the same for a list entry and a payment: an IPv6 address that embeds an
 * IPv4 one (IPv4-mapped, NAT64, 6to4, Teredo) is that IPv4 address, so a blacklisted IPv4 cannot
 * be reached through a translator's or tunnel's form of it (issue 29); an IPv6 zone, brackets and
 * a port are dropped.
 * Undefined when no IP.
 */
export function canonicalIp(ip: string): string | undefined {
  const text = withoutPort(ip.trim());
  // Most shoppers' addresses: answered as they are, without parsing them twice (every payment).
  if (CANONICAL_IPV4.test(text)) return text;
  if (!ipaddr.isValid(text)) return undefined;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') return parsed.toNormalizedString();
  const v6 = parsed as ipaddr.IPv6;
  return (shopperIpv4(v6) ?? new ipaddr.IPv6(v6.parts)).toNormalizedString();
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
