import ipaddr from 'ipaddr.js';

/**
 * Local receivers: on the test system, an entity may name webhook receivers on the gateway's own
 * machine (loopback host and an explicit port) for development. Only loopback, and only the
 * ports listed: a merchant can reach its own receiver, never the rest of the gateway's network
 * (private ranges, metadata services) nor any other port of the machine.
 */
export const MAX_LOCAL_RECEIVERS = 10;

const LOOPBACK_NAMES = new Set(['localhost']);

/** A loopback name or address as written in a URL's host (`localhost`, `127.0.0.1`, `[::1]`). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (LOOPBACK_NAMES.has(host)) return true;
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!ipaddr.isValid(bare)) return false;
  const parsed = ipaddr.process(bare);
  return parsed.range() === 'loopback';
}

/** Whether a resolved address (no brackets) is a loopback one, IPv4-mapped forms included. */
export function isLoopbackAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}

export type LocalReceiversParse = { readonly ok: true; readonly receivers: readonly string[] } | { readonly ok: false; readonly message: string };

function normalised(entry: string): string | undefined {
  const match = /^(localhost|\[[0-9a-f:.]+\]|[0-9.]+):([0-9]{1,5})$/i.exec(entry);
  if (!match || !isLoopbackHost(match[1]!)) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return undefined;
  return `${match[1]!.toLowerCase()}:${port}`;
}

/** 'localhost:4242, 127.0.0.1:3000' → the normalised list; '' clears it. */
export function parseLocalReceivers(text: string): LocalReceiversParse {
  const entries = text.split(',').map((e) => e.trim()).filter((e) => e !== '');
  if (entries.length > MAX_LOCAL_RECEIVERS) return { ok: false, message: `at most ${MAX_LOCAL_RECEIVERS} receivers` };
  const receivers: string[] = [];
  for (const entry of entries) {
    const receiver = normalised(entry);
    if (!receiver) return { ok: false, message: `${entry.slice(0, 64)} is not a loopback host with a port (localhost:4242, 127.0.0.1:4242, [::1]:4242)` };
    if (!receivers.includes(receiver)) receivers.push(receiver);
  }
  return { ok: true, receivers };
}

/** The port a URL reaches: its own, else its scheme's. */
function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * Whether the URL targets one of the receivers: a loopback host and a listed port. Every loopback
 * host names the same machine, so `localhost:4242` also admits `127.0.0.1:4242` and `[::1]:4242`.
 */
export function isListedLocalReceiver(url: URL, receivers: readonly string[]): boolean {
  if (receivers.length === 0 || !isLoopbackHost(url.hostname)) return false;
  const port = portOf(url);
  return receivers.some((receiver) => Number(receiver.slice(receiver.lastIndexOf(':') + 1)) === port);
}
