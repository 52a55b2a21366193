import { hash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { VelocityKey } from './facts.js';

/** E-mail addresses differ only in case for the test data (docs/risk.md); lists and velocity use canonicalEmail. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A dotted quad already in its one form (no leading zeros, which some parsers read as octal). */
const CANONICAL_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function ipv4Of(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 address an IPv6 one stands for, where it embeds one by a fixed rule: IPv4-mapped
 * (::ffff:0:0/96) and IPv4-translated (::ffff:0:0:0/96, RFC 6145), NAT64's well-known prefix
 * (64:ff9b::/96, RFC 6052: not the local-use 64:ff9b:1::/48, whose prefix length each network
 * chooses), 6to4 (2002::/16, RFC 3056: the site's address in bits 16 to 47) and Teredo
 * (2001::/32, RFC 4380: the client's public address, every bit inverted, in the last 32).
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const [p0, p1, p2, p3, p4, p5, p6, p7] = address.parts as [number, number, number, number, number, number, number, number];
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return ipv4Of(p6, p7);
    case 'rfc6052':
      return p0 === 0x64 && p1 === 0xff9b && p2 === 0 && p3 === 0 && p4 === 0 && p5 === 0 ? ipv4Of(p6, p7) : undefined;
    case '6to4':
      return ipv4Of(p1, p2);
    case 'teredo':
      return ipv4Of(~p6 & 0xffff, ~p7 & 0xffff);
    default:
      return undefined;
  }
}

/**
 * One form per address, the same for a list entry and a payment: an IPv6 address that embeds an
 * IPv4 one (IPv4-mapped, NAT64, 6to4, Teredo) is that IPv4 address, so a blacklisted IPv4 cannot
 * be reached through a translator's or tunnel's form of it (issue 29); an IPv6 zone is dropped.
 * Undefined when no IP.
 */
export function canonicalIp(ip: string): string | undefined {
  const text = ip.trim();
  // Most shoppers' addresses: answered as they are, without parsing them twice (every payment).
  if (CANONICAL_IPV4.test(text)) return text;
  if (!ipaddr.isValid(text)) return undefined;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') return parsed.toNormalizedString();
  const v6 = parsed as ipaddr.IPv6;
  return (embeddedIpv4(v6) ?? new ipaddr.IPv6(v6.parts)).toNormalizedString();
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
