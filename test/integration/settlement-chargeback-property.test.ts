import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { SettlementRecord } from '../../src/connectors/connector.js';
import { randomIds } from '../../src/domain/ids.js';
import { ingestSettlement } from '../../src/operations/settlement/ingest-settlement.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, referencePayment, type Merchant } from '../support/payments.js';
import { resolutionWorker } from '../support/resolution.js';
import { fixedSource } from '../support/settlement.js';
import { json, withAppAndMerchant, type TestApp } from '../support/test-app.js';

/**
 * The invariant of issue 29, item 1, over random sequences: for every payment, what was paid is at
 * least what is refunded plus what chargebacks took less what reversals gave back; the stored
 * refunded amount is exactly that; each chargeback is reversed at most once. Whatever the order of
 * refunds (some pending, declined later), chargebacks and reversals, and however records, files
 * and runs are repeated.
 */

const PAID_MINOR = 4000n;

/** A record of a file: new (a chargeback or a reversal of some amount) or one delivered before, again. */
type FileRecord = { readonly kind: 'CHARGEBACK' | 'CHARGEBACK_REVERSAL'; readonly amountMinor: bigint } | { readonly kind: 'again'; readonly pick: number };
type Step =
  | { readonly kind: 'RF'; readonly amountMinor: bigint }
  // 9.98: the acquirer does not answer in time; the status query later declines it ('resolve').
  | { readonly kind: 'RF declined later' }
  | { readonly kind: 'resolve' }
  | { readonly kind: 'file'; readonly records: readonly FileRecord[] }
  | { readonly kind: 'file again'; readonly pick: number }
  | { readonly kind: 'run again' };

const amount = fc.bigInt({ min: 1n, max: PAID_MINOR });
const fileRecord: fc.Arbitrary<FileRecord> = fc.oneof(
  fc.record({ kind: fc.constantFrom('CHARGEBACK' as const, 'CHARGEBACK_REVERSAL' as const), amountMinor: amount }),
  fc.record({ kind: fc.constant('again' as const), pick: fc.nat() }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('RF' as const), amountMinor: fc.bigInt({ min: 1n, max: 2500n }) }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'RF declined later' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'resolve' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('file' as const), records: fc.array(fileRecord, { minLength: 1, maxLength: 4 }) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('file again' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'run again' as const }), weight: 1 },
);

interface Payment {
  readonly id: string;
  readonly connectorId: string;
  readonly reference: string;
}

interface Totals {
  paid: bigint;
  refundedColumn: bigint;
  refunds: bigint;
  chargedBack: bigint;
  givenBack: bigint;
  reversals: number;
  reversedChargebacks: number;
  chargebacks: number;
  shortChargebacks: number;
}

async function totalsOf(t: TestApp, paymentId: string): Promise<Totals> {
  const { rows } = await t.storage.query<Record<keyof Totals, bigint | number>>(
    `SELECT p.amount_minor AS paid, p.refunded_minor AS "refundedColumn",
            (SELECT coalesce(sum(amount_minor), 0) FROM transactions WHERE parent_id = p.id AND payment_type = 'RF' AND status <> 'rejected') AS refunds,
            (SELECT coalesce(sum(r.refundable_taken_minor), 0) FROM settlement_records r JOIN transactions c ON c.id = r.chargeback_id
              WHERE c.parent_id = p.id AND c.payment_type = 'CB') AS "chargedBack",
            (SELECT coalesce(sum(cb.refundable_taken_minor), 0) FROM settlement_records x JOIN settlement_records cb ON cb.chargeback_id = x.reversed_chargeback_id
              JOIN transactions c ON c.id = x.reversed_chargeback_id WHERE c.parent_id = p.id) AS "givenBack",
            (SELECT count(*)::int FROM transactions WHERE parent_id = p.id AND payment_type = 'CR') AS reversals,
            (SELECT count(DISTINCT x.reversed_chargeback_id)::int FROM settlement_records x JOIN transactions c ON c.id = x.reversed_chargeback_id
              WHERE c.parent_id = p.id) AS "reversedChargebacks",
            (SELECT count(*)::int FROM transactions WHERE parent_id = p.id AND payment_type = 'CB') AS chargebacks,
            (SELECT count(*)::int FROM settlement_records r JOIN transactions c ON c.id = r.chargeback_id
              WHERE c.parent_id = p.id AND c.payment_type = 'CB' AND r.refundable_taken_minor < LEAST(r.amount_minor, p.amount_minor)
                AND NOT EXISTS (SELECT 1 FROM settlement_records x WHERE x.reversed_chargeback_id = c.id)) AS "shortChargebacks"
       FROM transactions p WHERE p.id = $1`,
    [paymentId],
  );
  const row = rows[0]!;
  return {
    paid: BigInt(row.paid), refundedColumn: BigInt(row.refundedColumn), refunds: BigInt(row.refunds), chargedBack: BigInt(row.chargedBack),
    givenBack: BigInt(row.givenBack), reversals: Number(row.reversals), reversedChargebacks: Number(row.reversedChargebacks), chargebacks: Number(row.chargebacks),
    shortChargebacks: Number(row.shortChargebacks),
  };
}

function assertInvariant(totals: Totals, after: string): void {
  const net = totals.refunds + totals.chargedBack - totals.givenBack;
  assert.ok(totals.paid >= net, `${after}: paid ${totals.paid} < refunded ${totals.refunds} + charged back ${totals.chargedBack} - reversed ${totals.givenBack}`);
  assert.equal(totals.refundedColumn, net, `${after}: the stored refunded amount is the sum of its parts`);
  assert.ok(totals.refundedColumn >= 0n && totals.refundedColumn <= totals.paid, after);
  assert.equal(totals.reversals, totals.reversedChargebacks, `${after}: one CR per reversed chargeback, no more`);
  assert.ok(totals.reversedChargebacks <= totals.chargebacks, after);
  // Money charged back and not reversed is never refundable: a chargeback that could not take its
  // whole amount (refunds held the rest) leaves nothing refundable, whatever is declined or reversed later.
  if (totals.shortChargebacks > 0) assert.equal(totals.refundedColumn, totals.paid, `${after}: a chargeback short of its amount, yet something is refundable`);
}

function recordOf(payment: Payment, recordId: string, type: SettlementRecord['type'], amountMinor: bigint): SettlementRecord {
  return {
    recordId, type, status: 'SUCCESS', settlementDate: '2026-11-20', transactionDate: new Date('2026-11-20T10:00:00Z'),
    clearingInstitute: 'Property Acquirer', batchId: 'PROP-2026-11-20', paymentType: 'DB', amountMinor, currency: 'EUR',
    settlementAmountMinor: amountMinor, settlementCurrency: 'EUR', fxRate: '1', feeMinor: 0n, feeCurrency: 'EUR',
    connectorReferences: { ConnectorTxID1: payment.reference }, resultCode: '000.100.220',
  };
}

/** Plays one sequence against a new payment, checking the invariant after every step. */
class Sequence {
  private readonly files: SettlementRecord[][] = [];
  private readonly records: SettlementRecord[] = [];
  private lastFile: SettlementRecord[] | undefined;
  constructor(
    private readonly t: TestApp,
    private readonly merchant: Merchant,
    private readonly payment: Payment,
    private readonly run: number,
    private readonly resolve: () => Promise<void>,
  ) {}

  async play(steps: readonly Step[]): Promise<void> {
    for (const [index, s] of steps.entries()) {
      await this.apply(s);
      assertInvariant(await totalsOf(this.t, this.payment.id), `after step ${index + 1} (${s.kind})`);
    }
  }

  private async apply(s: Step): Promise<void> {
    if (s.kind === 'RF') {
      await referencePayment(this.t, this.merchant, this.payment.id, 'RF', (Number(s.amountMinor) / 100).toFixed(2));
    } else if (s.kind === 'RF declined later') {
      await referencePayment(this.t, this.merchant, this.payment.id, 'RF', '9.98');
    } else if (s.kind === 'resolve') {
      await this.resolve();
    } else if (s.kind === 'file') {
      const file = s.records.map((r, i) => this.recordFor(r, i));
      this.files.push(file);
      await this.ingest(file);
    } else if (s.kind === 'file again') {
      if (this.files.length > 0) await this.ingest(this.files[s.pick % this.files.length]!);
    } else if (this.lastFile) {
      await this.ingest(this.lastFile);
    }
  }

  private recordFor(r: FileRecord, index: number): SettlementRecord {
    if (r.kind === 'again' && this.records.length > 0) return this.records[r.pick % this.records.length]!;
    const kind = r.kind === 'again' ? 'CHARGEBACK_REVERSAL' : r.kind;
    const record = recordOf(this.payment, `P${this.run}-${this.records.length}-${index}`, kind, r.kind === 'again' ? PAID_MINOR : r.amountMinor);
    this.records.push(record);
    return record;
  }

  private async ingest(file: SettlementRecord[]): Promise<void> {
    this.lastFile = file;
    await ingestSettlement({ storage: this.t.storage, clock: this.t.clock, ids: randomIds }, [fixedSource(this.payment.connectorId, file)], '2026-11-20');
  }
}

for (const database of testDatabases()) {
  describe(`refunds, chargebacks and reversals in any order and repetition (${database.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), {}, (app, m) => {
      t = app;
      merchant = m;
    });

    it('keep paid >= refunded + charged back - reversed, each chargeback reversed at most once', async () => {
      let run = 0;
      const jobs = resolutionWorker(t);
      const resolve = async () => {
        t.clock.advance(6 * 60_000); // past the first status query of a pending refund
        await jobs.drain();
        t.clock.advance(1);
        await jobs.drain();
      };
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
          run += 1;
          const debit = await cardPayment(t, merchant, 'DB', '40.00', { testMode: 'EXTERNAL' });
          assert.equal(debit.statusCode, 200, debit.body);
          const id = json(debit)['id'] as string;
          const { rows } = await t.storage.query<{ connector_id: string; reference: string }>(
            `SELECT connector_id, connector_references ->> 'ConnectorTxID1' AS reference FROM transactions WHERE id = $1`,
            [id],
          );
          await new Sequence(t, merchant, { id, connectorId: rows[0]!.connector_id, reference: rows[0]!.reference }, run, resolve).play(steps);
        }),
        // Modest: the suite runs on both databases on a 2-core CI (a few seconds each).
        { numRuns: 25 },
      );
    });
  });
}
