/**
 * A real gateway process whose database connection is cut at the exact moment a payment's write
 * leaves it (a TCP proxy that cuts when it sees the prepared statement's name go by): the gateway
 * asks the database on a new connection whether the write's rows are there, by their ids, and
 * answers as if nothing had happened — a write that committed is not written again, one that did
 * not is written once — never a duplicate row, never a lost one. Only what cannot be known stays
 * 900.100.300 (uncertain), never a decline or a 500: a checked payment's pending row committed
 * without the risk counts its statement read; an Idempotency-Key replay and GET then answer what
 * the database holds, and the pending resolution ends it from the acquirer's own answer (the
 * ISO 8583 host emulator, whose ledger says what was charged).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { urlThrough } from '../../bench/support/postgres.js';
import { startAcquirerHost, type AcquirerHost } from '../../emulators/acquirer-host/server.js';
import { openStage, testDatabaseUrl, type FaultStage } from './support/fault-setup.js';
import { TcpProxy } from './support/tcp-proxy.js';

const url = testDatabaseUrl();
// Resolution in seconds instead of minutes (as iso8583-host.fault.ts).
const FAST_RESOLUTION = { ACQUIRER_HOST_TIMEOUT_MS: '800', CONNECTOR_TIMEOUT_MS: '2500', PENDING_CHECK_DELAYS_MINUTES: '0.05,0.05', PENDING_SWEEP_INTERVAL_MS: '300', IDEMPOTENCY_LEASE_MS: '1000', DATABASE_FAILOVER_WAIT_MS: '3000' };
/** The ISO 8583 connector's success code in test mode EXTERNAL. */
const APPROVED = '000.100.112';
/** The prepared statements of the payment path (payment-writes.ts): the outcome, and the pending row. */
const SETTLE = 'settle_payments\0';
const PENDING_ROW = ['insert_transactions\0', 'pending_with_risk_v3\0'];
/** The Idempotency-Key's own writes (idempotency-keys.ts): its claim, and its completion with the answer. */
const KEY_CLAIM = 'INSERT INTO idempotency_keys (entity_id';
const KEY_COMPLETION = "UPDATE idempotency_keys SET state = 'done'";

interface Answer { readonly status: number; readonly code?: string | undefined; readonly id?: string | undefined }

describe('a payment whose write is cut as it leaves the gateway', { skip: url ? false : 'TEST_DATABASE_URL not set: needs PostgreSQL' }, () => {
  let proxy: TcpProxy;
  let stage: FaultStage;
  let host: AcquirerHost;

  before(async () => {
    host = await startAcquirerHost();
    const target = new URL(url!);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    const proxyPort = await proxy.listen();
    stage = await openStage(url!, 'fault_uncertain', (schemaUrl) => urlThrough(schemaUrl, '127.0.0.1', proxyPort), { ...FAST_RESOLUTION, ACQUIRER_HOST_URL: `tcp://127.0.0.1:${host.port}` });
  });
  after(async () => {
    await stage.close();
    await proxy.close();
    await host.close();
  });

  async function pay(key: string, reference: string): Promise<Answer> {
    const response = await fetch(`${stage.gateway.url}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stage.merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key },
      body: new URLSearchParams({
        entityId: stage.merchant.entityId, paymentType: 'DB', amount: '12.00', currency: 'EUR', testMode: 'EXTERNAL', merchantTransactionId: reference,
        paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123',
      }),
    });
    const body = (await response.json()) as { id?: string; result?: { code?: string } };
    return { status: response.status, code: body.result?.code, id: body.id };
  }

  async function get(id: string): Promise<Answer> {
    const response = await fetch(`${stage.gateway.url}/v1/payments/${id}?entityId=${stage.merchant.entityId}`, { headers: { authorization: `Bearer ${stage.merchant.accessToken}` } });
    const body = (await response.json()) as { id?: string; result?: { code?: string } };
    return { status: response.status, code: body.result?.code, id: body.id };
  }

  async function rowsOf(reference: string): Promise<Array<{ id: string; status: string; result_code: string }>> {
    const { rows } = await stage.schema.admin.query<{ id: string; status: string; result_code: string }>('SELECT id, status, result_code FROM transactions WHERE merchant_transaction_id = $1', [reference]);
    return rows;
  }


  const approved = (answer: Answer) => assert.deepEqual([answer.status, answer.code], [200, APPROVED], 'resolved by asking the database: never uncertain where the truth can be known');

  it('outcome committed but unacknowledged: the leader holds it, so the request answers the approval, and it is not written twice', { timeout: 60_000 }, async () => {
    const key = randomUUID();
    const reference = `settle-delivered-${key.slice(0, 8)}`;
    const cut = proxy.cutWhenClientSends(SETTLE, true);
    const answer = await pay(key, reference);
    await cut;
    approved(answer);
    const rows = await rowsOf(reference);
    assert.deepEqual(rows.map((r) => [r.id, r.status, r.result_code]), [[answer.id, 'success', APPROVED]], 'one row, not lost, not duplicated');
    assert.equal(host.ledger.charged(answer.id!), true);
    assert.deepEqual(await pay(key, reference), { status: 200, code: APPROVED, id: answer.id }, 'the replay answers the same payment');
    assert.deepEqual(await get(answer.id!), { status: 200, code: APPROVED, id: answer.id });
  });

  it('outcome lost on its way: the leader lacks it, so it is written once more and the request answers the approval', { timeout: 60_000 }, async () => {
    const key = randomUUID();
    const reference = `settle-lost-${key.slice(0, 8)}`;
    const cut = proxy.cutWhenClientSends(SETTLE, false);
    const answer = await pay(key, reference);
    await cut;
    approved(answer);
    const rows = await rowsOf(reference);
    assert.deepEqual(rows.map((r) => [r.id, r.status, r.result_code]), [[answer.id, 'success', APPROVED]], 'the outcome is written, once');
    assert.equal(host.ledger.charged(answer.id!), true);
    assert.equal(host.ledger.get(answer.id!)?.reversedBy, undefined, 'nothing to reverse: the gateway holds the approval');
    assert.deepEqual(await get(answer.id!), { status: 200, code: APPROVED, id: answer.id });
  });

  it('pending row lost on its way: the leader lacks it, so it is written once more and the payment runs once', { timeout: 60_000 }, async () => {
    const key = randomUUID();
    const reference = `pending-lost-${key.slice(0, 8)}`;
    const entriesBefore = host.ledger.entries().length;
    const cut = proxy.cutWhenClientSends(PENDING_ROW, false);
    const answer = await pay(key, reference);
    await cut;
    approved(answer);
    const rows = await rowsOf(reference);
    assert.deepEqual(rows.map((r) => [r.id, r.status]), [[answer.id, 'success']], 'one payment, not two, not none');
    assert.equal(host.ledger.entries().length, entriesBefore + 1, 'one charge at the acquirer, not two');
    assert.deepEqual(await pay(key, reference), { status: 200, code: APPROVED, id: answer.id }, 'the replay answers the same payment');
  });

  it('pending row (with its risk attempt) committed but unacknowledged: the leader holds it, its risk counts are read again, and the payment runs once', { timeout: 60_000 }, async () => {
    const key = randomUUID();
    const reference = `pending-delivered-${key.slice(0, 8)}`;
    const entriesBefore = host.ledger.entries().length;
    const cut = proxy.cutWhenClientSends(PENDING_ROW, true);
    const answer = await pay(key, reference);
    await cut;
    approved(answer);
    const rows = await rowsOf(reference);
    assert.deepEqual(rows.map((r) => [r.id, r.status]), [[answer.id, 'success']], 'one row, not written twice');
    const { rows: attempts } = await stage.schema.admin.query<{ n: number }>('SELECT count(DISTINCT at)::int AS n FROM risk_attempts WHERE transaction_id = $1', [answer.id!]);
    assert.equal(attempts[0]!.n, 1, 'one risk attempt, not two');
    assert.equal(host.ledger.entries().length, entriesBefore + 1, 'one charge at the acquirer');
    assert.deepEqual(await pay(key, reference), { status: 200, code: APPROVED, id: answer.id }, 'the replay answers the same payment');
  });

  async function keyRecord(key: string): Promise<Array<{ state: string; response_status: number | null }>> {
    const { rows } = await stage.schema.admin.query<{ state: string; response_status: number | null }>('SELECT state, response_status FROM idempotency_keys WHERE key = $1', [key]);
    return rows;
  }

  for (const deliver of [true, false]) {
    const fate = deliver ? 'committed but unacknowledged: the leader holds the claim, so it is this request\'s' : 'lost on its way: the leader lacks it, so the key is claimed once more';
    it(`Idempotency-Key claim ${fate}, and the payment runs once`, { timeout: 60_000 }, async () => {
      const key = randomUUID();
      const reference = `claim-${deliver ? 'delivered' : 'lost'}-${key.slice(0, 8)}`;
      const entriesBefore = host.ledger.entries().length;
      const cut = proxy.cutWhenClientSends(KEY_CLAIM, deliver);
      const answer = await pay(key, reference);
      await cut;
      approved(answer);
      assert.deepEqual((await rowsOf(reference)).map((r) => [r.id, r.status]), [[answer.id, 'success']], 'one payment');
      assert.equal(host.ledger.entries().length, entriesBefore + 1, 'one charge at the acquirer');
      assert.deepEqual(await keyRecord(key), [{ state: 'done', response_status: 200 }], 'the key holds the answer');
      assert.deepEqual(await pay(key, reference), { status: 200, code: APPROVED, id: answer.id }, 'the replay answers the same payment');
    });

    const completion = deliver ? 'committed but unacknowledged' : 'lost on its way';
    it(`Idempotency-Key completion ${completion}: asked again (the same answer stored twice is stored once), and the payment's answer stands`, { timeout: 60_000 }, async () => {
      const key = randomUUID();
      const reference = `completion-${deliver ? 'delivered' : 'lost'}-${key.slice(0, 8)}`;
      const cut = proxy.cutWhenClientSends(KEY_COMPLETION, deliver);
      const answer = await pay(key, reference);
      await cut;
      approved(answer);
      assert.deepEqual(await keyRecord(key), [{ state: 'done', response_status: 200 }], 'the key holds the answer');
      assert.deepEqual(await pay(key, reference), { status: 200, code: APPROVED, id: answer.id }, 'the replay answers the same payment');
    });
  }
});
