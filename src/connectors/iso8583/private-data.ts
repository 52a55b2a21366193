/**
 * (The acquirer host emulator reads and writes the same; emulators/acquirer-host imports it.)
 *
 * Field 48 as the host and the gateway use it: `KEY=value` pairs separated by `;`.
 * GW: the gateway's transaction id of this message; ORIG: the original's (captures, refunds,
 * reversals, advices); ZIP: the billing postcode for the address check.
 */
export function parsePrivateData(field48: string | undefined): Readonly<Record<string, string>> {
  const pairs: Record<string, string> = {};
  for (const part of (field48 ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) pairs[part.slice(0, at)] = part.slice(at + 1);
  }
  return pairs;
}

export function formatPrivateData(pairs: Readonly<Record<string, string | undefined>>): string {
  return Object.entries(pairs)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([key, value]) => `${key}=${value.replace(/[;=]/g, ' ')}`)
    .join(';');
}
