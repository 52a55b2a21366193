import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createIso8583Connector, type Iso8583Connector } from '../../../src/connectors/iso8583/connector.js';
import type { PoolEvent } from '../../../src/connectors/iso8583/pool.js';
import { EMULATOR_PROFILE } from '../../../src/connectors/iso8583/profile.js';
import type { PendingAdvice } from '../../../src/connectors/iso8583/reversal-advice.js';
import { payment } from './fixtures.js';
import { startStuckHost, type StuckHost } from './stuck-host.js';

function connectorTo(host: StuckHost, options: { responseTimeoutMs: number; echoIntervalMs: number }, events: PoolEvent[], advices: PendingAdvice[]): Iso8583Connector {
  return createIso8583Connector({
    id: 'acquirer-host',
    profile: EMULATOR_PROFILE,
    endpoint: { host: '127.0.0.1', port: host.port, tls: false },
    successCode: '000.100.112',
    liveCapable: true,
    clock: () => new Date(),
    poolSize: 1,
    ...options,
    reversalAdvices: { enqueue: async (advice) => void advices.push(advice) },
    onEvent: (event) => events.push(event),
  });
}

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('ISO 8583 pool: a connection stuck on a partial frame (ff ff 30, then a trickle)', () => {
  it('a request timeout condemns its connection: it is replaced and the next payments succeed', async (t) => {
    const host = await startStuckHost();
    const events: PoolEvent[] = [];
    const advices: PendingAdvice[] = [];
    const connector = connectorTo(host, { responseTimeoutMs: 1_000, echoIntervalMs: 60_000 }, events, advices);
    t.after(async () => {
      connector.close();
      await host.close();
    });
    const first = payment(1000n);
    assert.equal((await connector.debit(first)).kind, 'unknown', 'the stuck answer is a timeout, never a success');
    assert.ok(advices.some((advice) => advice.original.transactionId === first.transactionId), 'and is advised');
    for (let i = 0; i < 5; i += 1) assert.equal((await connector.debit(payment(1000n + BigInt(i)))).kind, 'success', `payment ${i + 2} over the replacement`);
    assert.equal(host.stuck, 1);
    assert.ok(events.some((event) => event.type === 'condemned' && event.reason === 'request-timeout'), JSON.stringify(events));
    assert.equal(events.filter((event) => event.type === 'connected').length, 2, 'a second connection signed on');
  });

  it('a busy connection that receives no frame for an echo interval is condemned before its requests time out', async (t) => {
    const host = await startStuckHost();
    const events: PoolEvent[] = [];
    const connector = connectorTo(host, { responseTimeoutMs: 15_000, echoIntervalMs: 300 }, events, []);
    t.after(async () => {
      connector.close();
      await host.close();
    });
    const started = Date.now();
    const stuck = connector.debit(payment(1000n));
    await until(() => events.some((event) => event.type === 'condemned'), 'the stuck connection to be condemned');
    const condemned = events.find((event) => event.type === 'condemned');
    assert.deepEqual(condemned, { type: 'condemned', link: 0, reason: 'no-frame-while-busy' });
    assert.equal((await connector.debit(payment(2000n))).kind, 'success', 'the replacement serves while the stuck request still waits');
    assert.ok(Date.now() - started < 15_000, 'before the stuck request timed out');
    assert.equal((await stuck).kind, 'unknown');
  });
});
