import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EMULATOR_BINARY_PROFILE } from '../../../src/connectors/iso8583/profile.js';
import { CARD, payment, referencing, rig, type Rig } from './fixtures.js';
import { selfSignedLocalhost } from './tls-fixture.js';

describe('ISO 8583 connector against the acquirer host emulator', () => {
  let r: Rig;
  before(async () => {
    r = await rig();
  });
  after(() => r.close());

  const outcomes = [
    { name: 'approved', amount: 1000n, card: CARD.number, kind: 'success', code: '000.100.112', field39: '00' },
    { name: 'do not honour', amount: 1000n, card: '4000000000000002', kind: 'declined', code: '800.100.152', field39: '05' },
    { name: 'insufficient funds', amount: 1000n, card: '4000000000009995', kind: 'declined', code: '800.100.203', field39: '51', advice: '02' },
    { name: 'expired', amount: 1000n, card: '4000000000000069', kind: 'declined', code: '800.100.157', field39: '54', advice: '01' },
    { name: 'restricted card', amount: 1000n, card: '4000000000000044', kind: 'declined', code: '800.100.168', field39: '62', advice: '03' },
    { name: 'system malfunction', amount: 1000n, card: '4000000000000119', kind: 'declined', code: '900.100.201', field39: '96' },
    { name: 'CVV2 failure', amount: 1000n, card: '4000000000000127', kind: 'declined', code: '800.100.153', field39: 'N7' },
    { name: 'issuer inoperative (amount 666.04)', amount: 66604n, card: CARD.number, kind: 'declined', code: '900.100.400', field39: '91' },
  ] as const;
  for (const operation of ['authorize', 'debit', 'credit'] as const) {
    for (const row of outcomes) {
      it(`${operation}: ${row.name}`, async () => {
        const request = payment(row.amount, { method: { kind: 'card', card: { ...CARD, number: row.card } }, billing: { postcode: '10115' } });
        const outcome = await r.connector[operation](request);
        assert.equal(outcome.kind, row.kind);
        assert.equal(outcome.code, row.code);
        assert.equal(outcome.resultDetails['AcquirerResponse'], row.field39);
        assert.equal(outcome.resultDetails['MerchantAdviceCode'], 'advice' in row ? row.advice : undefined);
        assert.match(outcome.resultDetails['ConnectorTxID1'] ?? '', /^\d{12}$/, 'the RRN');
        assert.match(outcome.resultDetails['ConnectorTxID2'] ?? '', /^\d{6}$/, 'the STAN');
        if (row.kind === 'success') assert.match(outcome.resultDetails['ConnectorTxID3'] ?? '', /^A\d{5}$/, 'the authorisation code');
        assert.equal(/^\d{15}$/.test(outcome.schemeTransactionId ?? ''), row.kind === 'success' && operation !== 'credit', 'a scheme id for approved payments');
        assert.equal(outcome.avsResponse, 'Z');
        assert.equal(outcome.cvvResponse, 'M');
        assert.equal(r.host.ledger.charged(request.transactionId), row.kind === 'success');
      });
    }
  }

  it('captures, refunds and reverses against the host\'s ledger, and refuses more than the original', async () => {
    const pa = payment(5000n);
    const auth = await r.connector.authorize(pa);
    const parent = { transactionId: pa.transactionId, paymentType: 'PA' as const, amountMinor: 5000n, resultDetails: auth.resultDetails };
    const capture = await r.connector.capture(referencing(parent, 3000n));
    assert.equal(capture.kind, 'success');
    assert.equal((await r.connector.capture(referencing(parent, 2001n))).code, '800.100.174', 'more than authorised');
    const db = payment(4000n);
    const debit = await r.connector.debit(db);
    const dbParent = { transactionId: db.transactionId, paymentType: 'DB' as const, amountMinor: 4000n, resultDetails: debit.resultDetails };
    assert.equal((await r.connector.refund(referencing(dbParent, 1500n))).kind, 'success');
    assert.equal((await r.connector.refund(referencing(dbParent, 2501n))).code, '800.100.174');
    const reversal = referencing(dbParent, 4000n);
    assert.equal((await r.connector.reverse(reversal)).kind, 'success');
    assert.equal(r.host.ledger.charged(db.transactionId), false);
    assert.equal((await r.connector.reverse(referencing(dbParent, 4000n))).code, '800.100.167', 'nothing left to reverse');
  });

  it('a timeout is unknown, never success; its advice undoes the booking at the host', async () => {
    const request = payment(66601n);
    const outcome = await r.connector.debit(request);
    assert.equal(outcome.kind, 'unknown');
    assert.equal(r.host.ledger.charged(request.transactionId), true, 'the host booked it before answering late');
    const advice = r.advices.find((a) => a.original.transactionId === request.transactionId)!;
    assert.equal(advice.original.stan.length, 6);
    assert.ok(!JSON.stringify(advice).includes(CARD.number), 'no card data in the advice kept for the job');
    assert.equal(await r.connector.sendReversalAdvice(advice.original, false), 'acknowledged');
    assert.equal(r.host.ledger.charged(request.transactionId), false);
    assert.equal(r.host.ledger.get(request.transactionId)?.reversedBy, 'advice');
  });

  it('a connection dropped mid-request is unknown; the status check reverses it', async () => {
    const request = payment(66602n);
    const outcome = await r.connector.debit(request);
    assert.equal(outcome.kind, 'unknown');
    const status = await r.connector.status!({ transactionId: request.transactionId, entityId: request.entityId, paymentType: 'DB', amountMinor: 66602n, currency: 'EUR', brand: 'VISA', createdAt: new Date(), connectorReferences: {} });
    assert.equal(status.kind, 'declined');
    assert.equal(status.code, '900.100.301');
    assert.equal(r.host.ledger.charged(request.transactionId), false);
    assert.equal((await r.connector.debit(payment(1000n))).kind, 'success', 'the pool reconnected');
  });

  const mayHaveMoved = [
    { name: 'a partial approval (10, amount 666.06)', amount: 66606n, field39: '10' },
    { name: 'a code no table knows (7Q, amount 666.07)', amount: 66607n, field39: '7Q' },
    { name: 'an answer without field 39 (amount 666.08)', amount: 66608n, field39: undefined },
    { name: 'an approval for another amount (field 4, amount 666.09)', amount: 66609n, field39: '00' },
  ] as const;
  for (const row of mayHaveMoved) {
    for (const operation of ['authorize', 'debit'] as const) {
      it(`${operation}: ${row.name} is declined 900.100.200 and reversed by advice, never a plain decline or a success`, async () => {
        const request = payment(row.amount);
        const outcome = await r.connector[operation](request);
        assert.equal(outcome.kind, 'declined');
        assert.equal(outcome.code, '900.100.200');
        assert.equal(outcome.notProcessed, undefined, 'no fallback route may try again: the host may have approved');
        assert.equal(outcome.resultDetails['AcquirerResponse'], row.field39);
        assert.equal(r.host.ledger.charged(request.transactionId), true, 'the host booked it');
        const advice = r.advices.find((a) => a.original.transactionId === request.transactionId);
        assert.ok(advice, 'a reversal advice is queued');
        assert.equal(await r.connector.sendReversalAdvice(advice.original, false), 'acknowledged');
        assert.equal(r.host.ledger.charged(request.transactionId), false, 'the advice undid it');
      });
    }
  }

  it('an answer that may have moved money stays unknown (pending) when its advice cannot be queued: the status check reverses it', async (t) => {
    const noQueue = await rig({}, { reversalAdvices: { enqueue: () => Promise.reject(new Error('database unavailable')) } });
    t.after(() => noQueue.close());
    const request = payment(66607n);
    const outcome = await noQueue.connector.debit(request);
    assert.equal(outcome.kind, 'unknown', 'never a decline the gateway could not make good');
    assert.equal(outcome.resultDetails['AcquirerResponse'], '7Q');
    const status = await noQueue.connector.status!({ transactionId: request.transactionId, entityId: request.entityId, paymentType: 'DB', amountMinor: 66607n, currency: 'EUR', brand: 'VISA', createdAt: new Date(), connectorReferences: {} });
    assert.equal(status.kind, 'declined');
    assert.equal(noQueue.host.ledger.charged(request.transactionId), false);
  });

  it('a refund answered with a code no table knows is reversed by advice too', async () => {
    const db = payment(80000n);
    const debit = await r.connector.debit(db);
    const parent = { transactionId: db.transactionId, paymentType: 'DB' as const, amountMinor: 80000n, resultDetails: debit.resultDetails };
    const refund = referencing(parent, 66607n);
    const outcome = await r.connector.refund(refund);
    assert.equal(outcome.code, '900.100.200');
    assert.ok(r.advices.some((a) => a.original.transactionId === refund.transactionId));
  });

  it('a duplicated answer is ignored, the next request is answered by its own', async () => {
    assert.equal((await r.connector.debit(payment(66603n))).kind, 'success');
    const next = await r.connector.debit(payment(1000n, { method: { kind: 'card', card: { ...CARD, number: '4000000000000002' } } }));
    assert.equal(next.code, '800.100.152');
  });

  it('50 concurrent refunds of one payment: exactly as many approved as fit', async () => {
    const db = payment(1000n);
    const debit = await r.connector.debit(db);
    const parent = { transactionId: db.transactionId, paymentType: 'DB' as const, amountMinor: 1000n, resultDetails: debit.resultDetails };
    const answers = await Promise.all(Array.from({ length: 50 }, () => r.connector.refund(referencing(parent, 100n))));
    assert.equal(answers.filter((a) => a.kind === 'success').length, 10);
    assert.equal(r.host.ledger.childrenTotal(db.transactionId, 'refund'), 1000n);
  });

  it('no connection to the host: declined 900.100.600, nothing advised', async () => {
    const down = await rig();
    await down.host.close();
    const before = down.advices.length;
    const outcome = await down.connector.debit(payment(1000n));
    assert.equal(outcome.kind, 'declined');
    assert.equal(outcome.code, '900.100.600');
    assert.equal(down.advices.length, before);
    down.connector.close();
  });

  it('reads the settlement file the host writes, chargebacks included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'settle-'));
    try {
      const cb = payment(2500n, { method: { kind: 'card', card: { ...CARD, number: '4000000000000259' } } });
      const outcome = await r.connector.debit(cb);
      const date = new Date().toISOString().slice(0, 10);
      writeFileSync(join(dir, `settlement-${date}.txt`), r.host.settlementFile(date));
      assert.ok(readFileSync(join(dir, `settlement-${date}.txt`), 'utf8').startsWith('H|ACQHOST-SETTLEMENT|1|'));
      const settling = await rig({}, { settlementSource: join(dir, 'settlement-{date}.txt') });
      const records = [];
      for await (const record of settling.connector.settlement!({ date })) records.push(record);
      const mine = records.filter((rec) => rec.connectorReferences['ConnectorTxID1'] === outcome.resultDetails['ConnectorTxID1']);
      assert.deepEqual(mine.map((rec) => rec.type).sort(), ['CHARGEBACK', 'SETTLED']);
      assert.equal(mine[0]!.amountMinor, 2500n);
      assert.equal(mine[0]!.paymentType, 'DB');
      assert.equal(mine.find((rec) => rec.type === 'SETTLED')!.feeMinor, 37n);
      assert.equal(mine.find((rec) => rec.type === 'CHARGEBACK')!.resultCode, '000.100.206');
      await settling.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const tlsCertificate = selfSignedLocalhost();

describe('ISO 8583 connector: binary profile over TLS', { skip: tlsCertificate ? false : 'no openssl to make a certificate' }, () => {
  it('signs on, pays and answers through a TLS link in BCD', async (t) => {
    const { key, cert } = tlsCertificate!;
    const r = await rig({ tls: { key, cert }, profile: EMULATOR_BINARY_PROFILE }, { profile: EMULATOR_BINARY_PROFILE });
    t.after(() => r.close());
    const { createIso8583Connector } = await import('../../../src/connectors/iso8583/connector.js');
    const connector = createIso8583Connector({ id: 'tls', profile: EMULATOR_BINARY_PROFILE, endpoint: { host: '127.0.0.1', port: r.host.port, tls: true, caPem: cert, serverName: 'localhost' }, successCode: '000.000.000', liveCapable: true, clock: () => new Date(), responseTimeoutMs: 2000 });
    t.after(() => connector.close());
    const outcome = await connector.debit(payment(1234n));
    assert.equal(outcome.kind, 'success');
    assert.equal(outcome.code, '000.000.000');
    const signOns = r.host.received.get('0800') ?? 0;
    assert.ok(signOns >= 1 && signOns <= 4, 'a sign-on per connection opened');
  });
});

describe('ISO 8583 connection pool', () => {
  it('echoes idle connections, and reconnects after the host cuts them all', async (t) => {
    const r = await rig({}, { echoIntervalMs: 50, poolSize: 2 });
    t.after(() => r.close());
    assert.equal((await r.connector.debit(payment(1000n))).kind, 'success');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const echoes = r.host.received.get('0800') ?? 0;
    assert.ok(echoes >= 4, `sign-ons and echoes: ${echoes}`);
    r.host.dropConnections();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(r.connector.pool.openConnections, 0);
    assert.equal((await r.connector.debit(payment(1000n))).kind, 'success', 'a request after the cut opens a connection again');
    assert.ok(r.connector.pool.openConnections >= 1);
  });
  it('its policy is the profile\'s contract', async (t) => {
    const r = await rig();
    t.after(() => r.close());
    assert.deepEqual(r.connector.policy, r.host.profile.policy);
  });
});

describe('ISO 8583 connector traces', () => {
  it('traces every message masked: no card number, expiry or CVV2 in any line', async (t) => {
    const traces: string[] = [];
    const r = await rig({}, { onTrace: (direction, trace) => traces.push(`${direction}\n${trace}`) });
    t.after(() => r.close());
    await r.connector.debit(payment(1000n));
    assert.ok(traces.some((line) => line.startsWith('sent')) && traces.some((line) => line.startsWith('received')));
    const flat = traces.join('\n').replace(/^[0-9a-f]{4} {2}/gm, '').replace(/\s+/g, '');
    const hex = (text: string) => Buffer.from(text, 'latin1').toString('hex');
    assert.ok(!flat.includes(hex(CARD.number)), 'the card number is not in any trace');
    const sent = traces.find((line) => line.startsWith('sent\n0000  30 32 30 30'))!;
    // 16 PAN digits, 4 of expiry, 3 of CVV2: each byte masked.
    assert.equal(sent.match(/\*\*/g)?.length, 16 + 4 + 3);
  });
});

describe('ISO 8583 connector: status of an unanswered void', () => {
  it('sends the reversal again; the host answers a repeat as the first time', async (t) => {
    const r = await rig();
    t.after(() => r.close());
    const db = payment(3000n);
    const debit = await r.connector.debit(db);
    const parent = { transactionId: db.transactionId, paymentType: 'DB' as const, amountMinor: 3000n, resultDetails: debit.resultDetails };
    const reversal = referencing(parent, 3000n);
    assert.equal((await r.connector.reverse(reversal)).kind, 'success');
    const status = await r.connector.status!({ transactionId: reversal.transactionId, entityId: reversal.entityId, paymentType: 'RV', amountMinor: 3000n, currency: 'EUR', brand: 'VISA', createdAt: new Date(), connectorReferences: {}, parent: { transactionId: db.transactionId, paymentType: 'DB', connectorReferences: debit.resultDetails } });
    assert.equal(status.kind, 'success');
    assert.equal(r.host.ledger.charged(db.transactionId), false);
  });
});
