import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describePhase } from './load.js';
import { migrate } from '../src/storage/migrate.js';
import { createPgStorage } from '../src/storage/pg-storage.js';
import { paymentPhase } from './support/gateway-phases.js';
import { startGatewayProcess } from './support/gateway.js';
import { startOtlpSink } from './support/otlp-sink.js';
import { createBenchSchema, createMerchant } from './support/postgres.js';

const DIR = '/tmp/tp/prof';
const schema = await createBenchSchema('bench_tprof');
const sink = await startOtlpSink();
try {
  const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
  await migrate(storage).finally(() => storage.close());
  const merchant = await createMerchant(schema.url);
  rmSync(DIR, { recursive: true, force: true }); mkdirSync(DIR, { recursive: true });
  const gateway = await startGatewayProcess({ databaseUrl: schema.url, poolSize: 10, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${DIR}`], env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_TRACES_SAMPLER: 'always_on' } });
  const phase = { url: gateway.url, connections: 64, pid: gateway.pid };
  await paymentPhase('warm', { ...phase, durationSeconds: 3 }, merchant, 'DB');
  console.log(describePhase(await paymentPhase('profiled', { ...phase, durationSeconds: 10 }, merchant, 'DB')));
  await gateway.stop('SIGTERM');
  const file = readdirSync(DIR).find((n) => /\.0\.\d+\.cpuprofile$/.test(n))!;
  const profile = JSON.parse(readFileSync(join(DIR, file), 'utf8'));
  const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const incl = new Map<string, number>(); const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id: number, i: number) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000; total += ms;
    const node = byId.get(id);
    const key = (n: any) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*node_modules\//, '').replace(/.*wt-tracing\//, '')}:${n.callFrame.lineNumber}`;
    self.set(key(node), (self.get(key(node)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const f = byId.get(at); const url: string = f.callFrame.url;
      const area = url.includes('@opentelemetry/') ? 'otel:' + url.replace(/.*@opentelemetry\/([^/]+)\/.*/, '$1') : url.includes('observability/tracing') ? 'ours:' + url.replace(/.*tracing\//, '') : '';
      if (area && !seen.has(area)) { seen.add(area); incl.set(area, (incl.get(area) ?? 0) + ms); }
    }
  });
  console.log('total ms', total.toFixed(0));
  for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log('incl', (100 * v / total).toFixed(1), '%', k);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log('self', (100 * v / total).toFixed(1), '%', k);
} finally {
  await sink.stop();
  await schema.drop();
}
