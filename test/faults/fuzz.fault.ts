/**
 * Fuzz run against a real gateway process (embedded PGlite): FUZZ_REQUESTS (100,000) random and
 * malformed requests, 32 keep-alive connections. No answer may be a 5xx, every well-framed
 * request must be answered within 10 s, and the process must still be alive and taking payments
 * at the end. FUZZ_SEED replays a run.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startGatewayProcess } from '../../bench/support/gateway.js';
import type { NodeProcess } from '../../bench/support/node-process.js';
import { runFuzz } from './support/fuzz-run.js';

const TOTAL = Number(process.env['FUZZ_REQUESTS'] ?? 100_000);
const SEED = Number(process.env['FUZZ_SEED'] ?? Date.now() % 1_000_000);
const CONCURRENCY = 32;
const ANSWER_WITHIN_MS = 10_000;

async function demoMerchant(gateway: NodeProcess): Promise<{ entityId: string; token: string }> {
  // Printed on first start, right after the server starts listening.
  for (let waited = 0; waited < 10_000; waited += 100) {
    const entityId = /entityId:\s+([0-9a-f]{32})/.exec(gateway.output())?.[1];
    const token = /accessToken: (\S+)/.exec(gateway.output())?.[1];
    if (entityId && token) return { entityId, token };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no demo merchant printed:\n${gateway.output()}`);
}

describe('fuzzing a real gateway process', () => {
  let dataDir: string;
  let gateway: NodeProcess;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gateway-fuzz-'));
    gateway = await startGatewayProcess({ dataDir });
  });
  after(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`${TOTAL} random and malformed requests: no 5xx, no hang, still serving afterwards`, { timeout: 600_000 }, async () => {
    const { entityId, token } = await demoMerchant(gateway);
    const report = await runFuzz({ url: gateway.url, context: { entityId, token, paymentIds: [] }, total: TOTAL, concurrency: CONCURRENCY, seed: SEED, timeoutMs: ANSWER_WITHIN_MS });
    console.log(JSON.stringify({ seed: SEED, ...report, problems: undefined }));
    assert.equal(report.sent, TOTAL);
    assert.deepEqual(report.problems, [], `seed ${SEED}: ${report.problemCount} problems`);
    assert.ok(gateway.alive(), 'the gateway process is still alive');
    const health = await fetch(`${gateway.url}/health`);
    assert.equal(health.status, 200);
    const payment = await fetch(`${gateway.url}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' }),
    });
    assert.equal(payment.status, 200, await payment.text());
  });
});
