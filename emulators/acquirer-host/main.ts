/**
 * `npm run acquirer-host`: the processor test platform as its own program. Flags win over the
 * environment; see README.md in this folder.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { EMULATOR_BINARY_PROFILE, EMULATOR_PROFILE } from '../../src/connectors/iso8583/profile.js';
import { DEFAULT_SLOW_MS, startAcquirerHost } from './server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    bind: { type: 'string' },
    'tls-key': { type: 'string' },
    'tls-cert': { type: 'string' },
    'query-port': { type: 'string' },
    'slow-ms': { type: 'string' },
    'settlement-dir': { type: 'string' },
    encoding: { type: 'string' },
  },
});
const env = process.env;
const setting = (flag: keyof typeof values, variable: string, fallback: string): string => (values[flag] as string | undefined) ?? env[variable] ?? fallback;
const tlsKey = setting('tls-key', 'ACQUIRER_HOST_TLS_KEY', '');
const tlsCert = setting('tls-cert', 'ACQUIRER_HOST_TLS_CERT', '');
if ((tlsKey === '') !== (tlsCert === '')) throw new Error('TLS needs both --tls-key and --tls-cert (ACQUIRER_HOST_TLS_KEY, ACQUIRER_HOST_TLS_CERT)');
const encoding = setting('encoding', 'ACQUIRER_HOST_ENCODING', 'ascii');
if (encoding !== 'ascii' && encoding !== 'binary') throw new Error('--encoding must be ascii or binary');

const settlementDir = setting('settlement-dir', 'ACQUIRER_HOST_SETTLEMENT_DIR', './data/acquirer-host');
const host = await startAcquirerHost({
  port: Number(setting('port', 'ACQUIRER_HOST_PORT', '8583')),
  host: setting('bind', 'ACQUIRER_HOST_BIND', '127.0.0.1'),
  tls: tlsKey ? { key: readFileSync(tlsKey, 'utf8'), cert: readFileSync(tlsCert, 'utf8') } : undefined,
  queryPort: Number(setting('query-port', 'ACQUIRER_HOST_QUERY_PORT', '8584')),
  slowMs: Number(setting('slow-ms', 'ACQUIRER_HOST_SLOW_MS', String(DEFAULT_SLOW_MS))),
  settlementDir,
  profile: encoding === 'binary' ? EMULATOR_BINARY_PROFILE : EMULATOR_PROFILE,
});
console.log(JSON.stringify({ msg: 'acquirer host listening', port: host.port, tls: tlsKey !== '', queryPort: host.queryPort, settlementDir, encoding }));

/** The day's file is written at each UTC midnight for the day that ended, and on stop for the current one. */
const today = (): string => new Date().toISOString().slice(0, 10);
let day = today();
const ticker = setInterval(() => {
  if (today() === day) return;
  void host.writeSettlementFile(day).then((path) => console.log(JSON.stringify({ msg: 'settlement file written', path })));
  day = today();
}, 60_000);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    clearInterval(ticker);
    void host
      .writeSettlementFile(day)
      .then((path) => console.log(JSON.stringify({ msg: 'settlement file written', path })))
      .finally(() => host.close());
  });
}
