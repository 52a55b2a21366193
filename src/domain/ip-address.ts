import ipaddr from 'ipaddr.js';

const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * The IPv4 address an IPv6 one carries and stands for, where it embeds one by a fixed rule:
 * IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96, RFC 6145), NAT64's well-known
 * prefix (64:ff9b::/96, RFC 6052; not the local-use 64:ff9b:1::/48, whose prefix length each
 * network chooses) and 6to4 (2002::/16, RFC 3056: the site's address in bits 16 to 47). Where
 * the packets go (webhook-address.ts) and who a shopper is (risk/keys.ts) both start here.
 */
export function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return new ipaddr.IPv4(bytes.slice(12, 16));
    case 'rfc6052':
      return address.match(NAT64_WELL_KNOWN) ? new ipaddr.IPv4(bytes.slice(12, 16)) : undefined;
    case '6to4':
      return new ipaddr.IPv4(bytes.slice(2, 6));
    default:
      return undefined;
  }
}
