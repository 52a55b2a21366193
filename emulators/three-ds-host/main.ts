/**
 * `npm run three-ds-host`: the 3DS test platform (directory server and ACS) as its own program.
 * Flags win over the environment; see README.md in this folder.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_RREQ_TIMEOUT_MS, DEFAULT_SLOW_MS, startThreeDsHost } from './server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    bind: { type: 'string' },
    'public-url': { type: 'string' },
    'slow-ms': { type: 'string' },
    'rreq-timeout-ms': { type: 'string' },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    'client-ca': { type: 'string' },
    'results-ca': { type: 'string' },
  },
});
const env = process.env;
const setting = (flag: keyof typeof values, variable: string, fallback: string): string => (values[flag] as string | undefined) ?? env[variable] ?? fallback;
const number = (flag: keyof typeof values, variable: string, fallback: number): number => {
  const value = Number(setting(flag, variable, String(fallback)));
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${flag} (${variable}) must be a whole number, 0 or more`);
  return value;
};

/** HTTPS with the certificate and key files; with a client CA file, the DS's endpoints require mutual TLS (tls.ts). */
function tlsOf() {
  const [cert, key, clientCa] = [setting('tls-cert', 'THREE_DS_HOST_TLS_CERT', ''), setting('tls-key', 'THREE_DS_HOST_TLS_KEY', ''), setting('client-ca', 'THREE_DS_HOST_CLIENT_CA', '')];
  if (cert === '' && key === '' && clientCa === '') return undefined;
  if (cert === '' || key === '') throw new Error('--tls-cert and --tls-key (THREE_DS_HOST_TLS_CERT, THREE_DS_HOST_TLS_KEY) go together; --client-ca needs both');
  return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8'), clientCa: clientCa === '' ? undefined : readFileSync(clientCa, 'utf8') };
}

const publicUrl = setting('public-url', 'THREE_DS_HOST_PUBLIC_URL', '');
const resultsCa = setting('results-ca', 'THREE_DS_HOST_RESULTS_CA', '');
const host = await startThreeDsHost({
  port: number('port', 'THREE_DS_HOST_PORT', 8590),
  host: setting('bind', 'THREE_DS_HOST_BIND', '127.0.0.1'),
  publicUrl: publicUrl === '' ? undefined : publicUrl,
  slowMs: number('slow-ms', 'THREE_DS_HOST_SLOW_MS', DEFAULT_SLOW_MS),
  rreqTimeoutMs: number('rreq-timeout-ms', 'THREE_DS_HOST_RREQ_TIMEOUT_MS', DEFAULT_RREQ_TIMEOUT_MS),
  tls: tlsOf(),
  resultsCa: resultsCa === '' ? undefined : readFileSync(resultsCa, 'utf8'),
});
console.log(JSON.stringify({ msg: '3DS test platform listening', port: host.port, url: host.url, areq: `${host.url}/ds/areq`, preq: `${host.url}/ds/preq`, log: `${host.url}/log` }));

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void host.close());
