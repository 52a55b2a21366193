import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isAddressLiteral, judgeAddress } from '../../domain/webhook-address.js';
import { refusedAddressMessage, type WebhookTargetRules } from '../../domain/webhook-url.js';

export type ResolveHost = (hostname: string) => Promise<readonly LookupAddress[]>;

const systemResolve: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * The address to connect to for a merchant's server: every address its name resolves to must be
 * public or allow-listed (one bad address refuses them all), and the connection goes to the
 * address checked, never to a second DNS answer (rebinding).
 */
export async function checkedPushAddress(hostname: string, rules: WebhookTargetRules, resolve: ResolveHost = systemResolve): Promise<string> {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const addresses = isAddressLiteral(hostname) ? [{ address: host, family: 0 }] : await resolve(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  for (const { address } of addresses) {
    const verdict = judgeAddress(address, rules.allowedAddresses);
    if (!verdict.allowed) throw new Error(`push target ${host} resolves to ${refusedAddressMessage(address, verdict.addressClass)}`);
  }
  return addresses[0]!.address;
}
