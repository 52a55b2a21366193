import type { Queryable } from '../port.js';

/** A merchant's row of the simulated acquirer's fee table, replaced when there is one. */
export async function upsertSettlementFees(db: Queryable, fees: { merchantId: string; fixedMinor: bigint; rateBasisPoints: number; currency: string | null }): Promise<void> {
  await db.query(
    `INSERT INTO settlement_fees (entity_id, fixed_minor, rate_basis_points, settlement_currency) VALUES ($1, $2, $3, $4)
     ON CONFLICT (entity_id) DO UPDATE SET fixed_minor = EXCLUDED.fixed_minor, rate_basis_points = EXCLUDED.rate_basis_points,
       settlement_currency = EXCLUDED.settlement_currency`,
    [fees.merchantId, fees.fixedMinor, fees.rateBasisPoints, fees.currency],
  );
}
