import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isAddressLiteral, judgeAddress } from '../domain/webhook-address.js';
import { isLoopbackAddress } from '../domain/local-receivers.js';
import { isAllowedLocalReceiver, refusedAddressMessage, webhookUrlProblem, type WebhookTargetRules } from '../domain/webhook-url.js';

/** Resolves a host name to all its addresses; tests pass their own to play DNS. */
export type ResolveHost = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolve: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** The target breaks the address rules: trying again cannot help, the delivery fails for good. */
export class RefusedTargetError extends Error {
  override readonly name = 'RefusedTargetError';
}

function bare(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

/**
 * The addresses a notification to `url` may be sent to: the URL passes the target rules and every
 * address its host resolves to now is public or allow-listed (one bad address refuses them all,
 * so a DNS answer mixing a public and a private address cannot pick the private one later).
 * Throws RefusedTargetError when refused; a failed resolution is an ordinary, retried error.
 */
export async function checkedAddresses(url: URL, rules: WebhookTargetRules, resolve: ResolveHost): Promise<readonly LookupAddress[]> {
  const problem = webhookUrlProblem(url.href, rules);
  if (problem) throw new RefusedTargetError(problem);
  const host = bare(url.hostname);
  if (isAddressLiteral(url.hostname)) return [{ address: host, family: url.hostname.startsWith('[') ? 6 : 4 }];
  const addresses = await resolve(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  // An entity's local receiver (test system): `localhost` must resolve to loopback addresses only.
  if (isAllowedLocalReceiver(url, rules)) {
    const elsewhere = addresses.find(({ address }) => !isLoopbackAddress(address));
    if (elsewhere) throw new RefusedTargetError(`${host} resolves to ${elsewhere.address}, not a loopback address; a local receiver must stay on this machine`);
    return addresses;
  }
  for (const { address } of addresses) {
    const verdict = judgeAddress(address, rules.allowedAddresses);
    if (!verdict.allowed) throw new RefusedTargetError(`${host} resolves to ${refusedAddressMessage(address, verdict.addressClass)}`);
  }
  return addresses;
}

/**
 * A `lookup` for the connection that answers only the addresses already checked, so nothing can
 * change between the check and the connect (DNS rebinding): the socket never asks DNS again.
 */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    if (wanted.length === 0) {
      callback(Object.assign(new Error('no checked address of the wanted family'), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all) callback(null, [...wanted]);
    else callback(null, wanted[0]!.address, wanted[0]!.family);
  };
}
