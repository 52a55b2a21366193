import ipaddr from 'ipaddr.js';
import { embeddedIpv4 } from './ip-address.js';

/**
 * Which network addresses a webhook may be sent to: public unicast only. Everything a gateway's
 * own network could reach but a merchant's server cannot be (loopback, private, link-local, the
 * clouds' metadata services …) is refused, so a URL cannot make the gateway call into its own
 * network (SSRF). An operator's allow-list lets tests reach receivers on 127.0.0.1.
 */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'unspecified'
  | 'private'
  | 'linkLocal'
  | 'carrierGradeNat'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'metadata'
  | 'reserved'
  | 'notAnAddress';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

const cidr = (text: string): Range => ipaddr.parseCIDR(text);

/**
 * Named before the general ranges, so that the answer says what the address is. Azure's
 * 168.63.129.16 is a public address that only a host inside Azure can reach.
 */
const NAMED_RANGES: readonly (readonly [AddressClass, Range])[] = [
  ['metadata', cidr('169.254.169.254/32')], // AWS, GCP, Azure, Oracle, OpenStack
  ['metadata', cidr('168.63.129.16/32')], // Azure wire server
  ['metadata', cidr('100.100.100.200/32')], // Alibaba Cloud
  ['metadata', cidr('fd00:ec2::254/128')], // AWS over IPv6
  ['documentation', cidr('192.0.2.0/24')],
  ['documentation', cidr('198.51.100.0/24')],
  ['documentation', cidr('203.0.113.0/24')],
  ['documentation', cidr('2001:db8::/32')],
  ['documentation', cidr('3fff::/20')],
  // NAT64 for a local network (RFC 8215): what it reaches is not known to be public.
  ['private', cidr('64:ff9b:1::/48')],
];

/** ipaddr.js's range names → ours; a name not listed here is 'reserved'. */
const RANGE_CLASSES: Readonly<Record<string, AddressClass>> = {
  unicast: 'public',
  loopback: 'loopback',
  unspecified: 'unspecified',
  private: 'private',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
  linkLocal: 'linkLocal',
  carrierGradeNat: 'carrierGradeNat',
  multicast: 'multicast',
  broadcast: 'broadcast',
};

// Only 2000::/3 is handed out as global unicast; ipaddr.js calls the unassigned rest 'unicast' too.
const GLOBAL_UNICAST_V6 = cidr('2000::/3');

/** The address the packets really go to: an IPv6 form of an IPv4 address becomes that address. */
function effective(address: Address): Address {
  return address.kind() === 'ipv6' ? (embeddedIpv4(address as ipaddr.IPv6) ?? address) : address;
}

function parse(text: string): Address | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  return ipaddr.isValid(bare) ? ipaddr.parse(bare) : undefined;
}

function inRange(address: Address, [base, bits]: Range): boolean {
  return address.kind() === base.kind() && address.match(base, bits);
}

function classOf(address: Address): AddressClass {
  const named = NAMED_RANGES.find(([, range]) => inRange(address, range));
  if (named) return named[0];
  const rangeClass = RANGE_CLASSES[address.range()] ?? 'reserved';
  if (rangeClass === 'public' && address.kind() === 'ipv6' && !inRange(address, GLOBAL_UNICAST_V6)) return 'reserved';
  return rangeClass;
}

/** What kind of address `text` is (IPv4, IPv6, bracketed IPv6, IPv4 inside IPv6 forms). */
export function classifyAddress(text: string): AddressClass {
  const address = parse(text);
  if (!address) return 'notAnAddress';
  const named = NAMED_RANGES.find(([, range]) => inRange(address, range));
  return named ? named[0] : classOf(effective(address));
}

/** An operator's list of addresses and CIDR ranges that are allowed whatever their class. */
export type AddressAllowList = readonly string[];

/** Parses 'a, b/n, …' into normalised CIDR texts; answers the entries that are not addresses. */
export function parseAllowList(text: string): { readonly ranges: AddressAllowList; readonly invalid: readonly string[] } {
  const ranges: string[] = [];
  const invalid: string[] = [];
  for (const entry of text.split(',').map((e) => e.trim()).filter((e) => e !== '')) {
    const withBits = entry.includes('/') ? entry : `${entry}/${ipaddr.IPv6.isValid(entry) ? 128 : 32}`;
    if (!ipaddr.isValidCIDR(withBits)) invalid.push(entry);
    else {
      const [base, bits] = ipaddr.parseCIDR(withBits);
      ranges.push(`${base.toString()}/${bits}`);
    }
  }
  return { ranges, invalid };
}

function allowListed(address: Address, allowList: AddressAllowList): boolean {
  const forms = [address, effective(address)];
  return allowList.some((entry) => forms.some((form) => inRange(form, cidr(entry))));
}

/** Whether an address is on an allow-list parseAllowList made (IPv4-mapped IPv6 forms included). */
export function isOnAllowList(text: string, allowList: AddressAllowList): boolean {
  const address = parse(text);
  return address !== undefined && allowListed(address, allowList);
}

export type AddressVerdict = { readonly allowed: true } | { readonly allowed: false; readonly addressClass: AddressClass };

/** Whether a webhook may be sent to this address: public, or on the operator's allow-list. */
export function judgeAddress(text: string, allowList: AddressAllowList): AddressVerdict {
  const address = parse(text);
  if (!address) return { allowed: false, addressClass: 'notAnAddress' };
  if (allowListed(address, allowList)) return { allowed: true };
  const addressClass = classifyAddress(text);
  return addressClass === 'public' ? { allowed: true } : { allowed: false, addressClass };
}

/** True when a URL's host names an address rather than a domain (`[::1]`, `127.0.0.1`). */
export function isAddressLiteral(hostname: string): boolean {
  return parse(hostname) !== undefined && (hostname.startsWith('[') || ipaddr.IPv4.isValidFourPartDecimal(hostname));
}
