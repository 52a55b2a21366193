/**
 * The settlement rows of `npm run bench` on their own:
 *
 *   npm run bench:settlement
 *
 * BENCH_SETTLEMENT_RECORDS (1000000): settlement records ingested and matched against as many
 * stored transactions, then written as one merchant's reconciliation file of the day.
 * BENCH_SETTLEMENT_FILE_RECORDS (3000000): lines of the acquirer host's settlement file, written to
 * disk and ingested through the ISO 8583 connector's streamed feed (time and peak RSS; 0 leaves it out).
 * Uses BENCH_DATABASE_URL or TEST_DATABASE_URL (a schema of its own, dropped afterwards).
 */
import { migrate } from '../src/storage/migrate.js';
import { createPgStorage } from '../src/storage/pg-storage.js';
import { createBenchSchema, createMerchant } from './support/postgres.js';
import { settlementPhases } from './support/settlement-phase.js';

export const settlementSettings = {
  records: Number(process.env['BENCH_SETTLEMENT_RECORDS'] ?? 1_000_000),
  fileRecords: Number(process.env['BENCH_SETTLEMENT_FILE_RECORDS'] ?? 3_000_000),
};

async function main(): Promise<void> {
  const schema = await createBenchSchema('bench_settlement');
  try {
    const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
    await migrate(storage).finally(() => storage.close());
    const merchant = await createMerchant(schema.url);
    await settlementPhases({ schemaUrl: schema.url, admin: schema.admin, merchantId: merchant.entityId, ...settlementSettings });
  } finally {
    await schema.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
