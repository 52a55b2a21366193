/**
 * Redis taken away from a real gateway process under a load of payments (a TCP proxy in front of
 * it; the shared Redis is never touched): first hung (a partition: nothing answers), then gone
 * (connections reset). Payments keep flowing and every answer stays bounded, readiness keeps the
 * process in the load balancer (Redis noted away), and once Redis is back the throttling counts
 * there again. docs/operations.md, "When Redis goes away", says why each use fails open or per process.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { REDIS_AWAY } from '../../src/observability/health/checks.js';
import { openStage, testDatabaseUrl } from './support/fault-setup.js';
import { answered, startLoad, waitUntil, type SentRequest } from './support/payment-load.js';
import { TcpProxy, type CutMode } from './support/tcp-proxy.js';

const databaseUrl = testDatabaseUrl();
const redisUrl = process.env['TEST_REDIS_URL'] || undefined;
const CUT_MS = 4_000;
/** A hung Redis costs a request at most the client's command timeout (500 ms) on top of its work. */
const ANSWER_WITHIN_MS = 3_000;
// A long window, so that the throttling counter stays in Redis long enough to be read.
const THROTTLING = { THROTTLE_WINDOW_MS: '600000', THROTTLE_MAX_REQUESTS: '1000000' };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Redis going away under load', { skip: databaseUrl && redisUrl ? false : 'TEST_DATABASE_URL and TEST_REDIS_URL needed' }, () => {
  it('payments keep flowing with bounded answers, readiness stays, and throttling counts in Redis again once it is back', { timeout: 120_000 }, async () => {
    const target = new URL(redisUrl!);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
    const proxyPort = await proxy.listen();
    const stage = await openStage(databaseUrl!, 'fault_redis', (u) => u, { ...THROTTLING, REDIS_URL: `redis://${target.hostname === 'localhost' ? '127.0.0.1' : target.hostname}:${proxyPort}` });
    const redis = new Redis(redisUrl!);
    const counter = `gateway-throttle:t:${createHash('sha256').update(`Bearer ${stage.merchant.accessToken}`).digest('base64url')}`;
    const counted = async () => Number((await redis.get(counter)) ?? 0);
    const readiness = async () => {
      const response = await fetch(`${stage.gateway.url}/health/ready`);
      return { status: response.status, redis: ((await response.json()) as { checks?: Record<string, string> }).checks?.['redis'] };
    };
    try {
      const load = startLoad({ url: stage.gateway.url, merchant: stage.merchant, workers: 8, getShare: 0.3, clientTimeoutMs: 30_000 });
      await waitUntil(() => answered(load.sent).length >= 100, 60_000);
      assert.ok((await counted()) > 0, 'throttling counts in Redis before the cut');
      const during: Array<Awaited<ReturnType<typeof readiness>>> = [];
      for (const mode of ['blackhole', 'reset'] as CutMode[]) {
        proxy.cut(mode);
        await pause(CUT_MS / 2);
        during.push(await readiness());
        await pause(CUT_MS / 2);
        proxy.restore();
        await pause(2_000);
      }
      const before = await counted();
      await pause(1_500);
      const after = await counted();
      const requests = await load.stop();
      const summary = summarise(requests);
      console.log(JSON.stringify({ ...summary, during, countedAfterRestore: [before, after] }));
      assert.deepEqual(requests.filter((r) => r.status !== 200).map((r) => `${r.kind} ${r.status ?? r.error} ${r.code}`), [], 'every request answered 200');
      assert.ok(summary.slowestMs < ANSWER_WITHIN_MS, `every answer within ${ANSWER_WITHIN_MS} ms (slowest ${summary.slowestMs} ms)`);
      assert.deepEqual(during, [{ status: 200, redis: REDIS_AWAY }, { status: 200, redis: REDIS_AWAY }], 'ready throughout, Redis noted away');
      assert.ok(after > before, `throttling counts in Redis again once it is back (${before} → ${after})`);
      assert.equal((await readiness()).redis, 'ok');
    } finally {
      await redis.del(counter).catch(() => undefined);
      redis.disconnect();
      await stage.close();
      await proxy.close();
    }
  });
});

function summarise(requests: readonly SentRequest[]): { requests: number; statuses: Record<string, number>; slowestMs: number } {
  const statuses: Record<string, number> = {};
  for (const r of requests) statuses[String(r.status ?? r.error)] = (statuses[String(r.status ?? r.error)] ?? 0) + 1;
  return { requests: requests.length, statuses, slowestMs: Math.round(Math.max(...requests.map((r) => r.ms ?? 0))) };
}
