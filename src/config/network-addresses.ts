import { isIP } from 'node:net';
import { readOptional, type Env } from './env-readers.js';

/** A TLS proxy on the same host is the usual set-up, so its loopback address is trusted unless told otherwise. */
export const LOOPBACK_PROXIES: readonly string[] = ['127.0.0.0/8', '::1'];

/** An IP address or a CIDR block (IPv4 /0-32, IPv6 /0-128), the forms Fastify's trustProxy list accepts. */
export function isAddressOrBlock(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** TRUSTED_PROXIES: comma-separated addresses or blocks; loopback when unset. */
export function readTrustedProxies(env: Env, problems: string[]): readonly string[] {
  const raw = readOptional(env, 'TRUSTED_PROXIES');
  if (raw === undefined) return LOOPBACK_PROXIES;
  const entries = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const bad = entries.filter((entry) => !isAddressOrBlock(entry));
  if (entries.length === 0 || bad.length > 0) {
    problems.push(`TRUSTED_PROXIES must list IP addresses or CIDR blocks separated by commas${bad.length > 0 ? ` (not ${bad.join(', ')})` : ''}`);
  }
  return entries;
}

/** A bind address only this machine can reach: what is sent to it never crosses a network. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}
