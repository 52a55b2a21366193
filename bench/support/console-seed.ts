/**
 * Ten million transactions for the console search benchmark, written by PostgreSQL itself
 * (INSERT … SELECT over generate_series, in chunks) into a schema of their own that later runs
 * reuse: seeding takes minutes, measuring seconds.
 *
 * The rows look like a gateway's after 90 days: written in time order (created_at follows the
 * physical order, as it does in life), four merchants of very different sizes with eight channels,
 * skewed currencies, brands, results, BINs, and a few thousand holders, e-mails and addresses
 * that come back. The indexes are dropped before the load and built again after it, each timed:
 * the build times of migration 048's indexes are its cost on a table this size.
 */
import pg from 'pg';
import { migrate } from '../../src/storage/migrate.js';
import { createPgStorage } from '../../src/storage/pg-storage.js';
import { urlWithSchema } from './postgres.js';

export const SEEDED_SCHEMA = 'console_search_seed';
const CHUNK_ROWS = 1_000_000;
const DAYS = 90;

/** Merchant → channels → share of all transactions (shares of a merchant's channels sum to its share). */
export const SEED_MERCHANTS = [
  { id: 'a'.repeat(32), name: 'Big retailer', channels: [0.3, 0.2, 0.1] },
  { id: 'b'.repeat(32), name: 'Travel agency', channels: [0.2, 0.1] },
  { id: 'c'.repeat(32), name: 'Marketplace', channels: [0.07, 0.025] },
  { id: 'd'.repeat(32), name: 'Small shop', channels: [0.005] },
] as const;

export const channelId = (merchant: number, channel: number): string => `${merchant + 1}${channel + 1}`.padEnd(32, '0');

export interface SeedTimings {
  readonly rows: number;
  readonly insertSeconds: number;
  readonly indexSeconds: Record<string, number>;
  readonly analyzeSeconds: number;
}

export interface SeededSchema {
  readonly name: string;
  readonly url: string;
  readonly rows: number;
  readonly timings: SeedTimings | null;
}

/** The finished seeded schema of that many rows, if a run made it already. */
export async function findSeededSchema(baseUrl: string, rows: number, schema = SEEDED_SCHEMA): Promise<SeededSchema | undefined> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const found = await client.query<{ rows: string }>(
      `SELECT obj_description(n.oid, 'pg_namespace') AS rows FROM pg_namespace n WHERE nspname = $1`, [schema]);
    const seeded = Number(found.rows[0]?.rows?.match(/^seeded (\d+)$/)?.[1] ?? 0);
    return seeded === rows ? { name: schema, url: urlWithSchema(baseUrl, schema), rows, timings: null } : undefined;
  } finally {
    await client.end();
  }
}

/** The seeded schema (by default the console search's), made now unless a finished one is there already. */
export async function seededSchema(baseUrl: string, rows: number, log: (line: string) => void, schema = SEEDED_SCHEMA): Promise<SeededSchema> {
  const found = await findSeededSchema(baseUrl, rows, schema);
  if (found) return found;
  const url = urlWithSchema(baseUrl, schema);
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
  const storage = createPgStorage({ connectionString: url, poolSize: 1 });
  await migrate(storage);
  await storage.close();
  const timings = await seed(url, rows, log);
  const done = new pg.Client({ connectionString: baseUrl });
  await done.connect();
  await done.query(`COMMENT ON SCHEMA ${schema} IS 'seeded ${rows}'`);
  await done.end();
  return { name: schema, url, rows, timings };
}

async function seed(url: string, rows: number, log: (line: string) => void): Promise<SeedTimings> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(`SET maintenance_work_mem = '512MB'`);
    await db.query('SET synchronous_commit = off');
    await insertEntities(db);
    const indexes = await db.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'transactions' AND indexname <> 'transactions_pkey'`);
    for (const index of indexes.rows) await db.query(`DROP INDEX ${index.indexname}`);
    // Foreign keys are checked row by row by triggers; the seed's are right by construction.
    await db.query(`SET session_replication_role = replica`);
    const insertStarted = Date.now();
    for (let from = 0; from < rows; from += CHUNK_ROWS) {
      await db.query(INSERT_CHUNK, [from, Math.min(rows, from + CHUNK_ROWS), rows]);
      log(`  seeded ${Math.min(rows, from + CHUNK_ROWS).toLocaleString('en')} rows (${Math.round((Date.now() - insertStarted) / 1000)} s)`);
    }
    const insertSeconds = (Date.now() - insertStarted) / 1000;
    // What the pending sweep would have done by now (migration 064): every row pending past the
    // connector's timeout is marked, so the search finds it through the index of long-pending rows.
    await db.query(`UPDATE transactions SET long_pending = true WHERE status = 'pending' AND created_at < now() - interval '30 seconds'`);
    await db.query(`SET session_replication_role = origin`);
    const indexSeconds: Record<string, number> = {};
    for (const index of indexes.rows) {
      const started = Date.now();
      await db.query(index.indexdef);
      indexSeconds[index.indexname] = (Date.now() - started) / 1000;
      log(`  ${index.indexname}: ${indexSeconds[index.indexname]} s`);
    }
    const analyzeStarted = Date.now();
    await db.query('VACUUM ANALYZE transactions');
    return { rows, insertSeconds, indexSeconds, analyzeSeconds: (Date.now() - analyzeStarted) / 1000 };
  } finally {
    await db.end();
  }
}

async function insertEntities(db: pg.Client): Promise<void> {
  for (const [m, merchant] of SEED_MERCHANTS.entries()) {
    await db.query(`INSERT INTO entities (id, kind, name, merchant_id, created_at) VALUES ($1, 'merchant', $2, NULL, now())`, [merchant.id, merchant.name]);
    for (const c of merchant.channels.keys()) {
      await db.query(`INSERT INTO entities (id, kind, name, merchant_id, created_at) VALUES ($1, 'channel', $2, $3, now())`,
        [channelId(m, c), `${merchant.name} channel ${c + 1}`, merchant.id]);
    }
  }
}

const CHANNELS = SEED_MERCHANTS.flatMap((merchant, m) => merchant.channels.map((share, c) => ({ id: channelId(m, c), share })));

/** One of the values, drawn by the uniform number r (a column of the draws) with the given shares. */
function pick(r: string, values: readonly string[], shares: readonly number[]): string {
  let sum = 0;
  const arms = values.slice(0, -1).map((value, i) => `WHEN ${r} < ${(sum += shares[i]!).toFixed(5)} THEN '${value}'`);
  return `CASE ${arms.join(' ')} ELSE '${values[values.length - 1]}' END`;
}

const FIRST = ['Anna', 'Ben', 'Chloe', 'David', 'Emma', 'Felix', 'Greta', 'Hugo', 'Ida', 'Jonas', 'Klara', 'Lukas', 'Mia', 'Noah', 'Olivia', 'Paul', 'Queenie', 'Rafael', 'Sofia', 'Tom', 'Ursula', 'Victor', 'Wanda', 'Xaver', 'Yara', 'Zoe', 'Amir', 'Bea', 'Carlos', 'Dana', 'Elif', 'Farid', 'Gina', 'Hana', 'Ivan', 'Jana', 'Kemal', 'Lena', 'Marco', 'Nina', 'Oskar', 'Petra', 'Quentin', 'Rosa', 'Sven', 'Tara', 'Uwe', 'Vera', 'Willem', 'Ximena', 'Yusuf', 'Zara', 'Aiko', 'Bruno', 'Cleo', 'Dario', 'Eva', 'Finn', 'Gil', 'Hedda'];
const LAST = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Johnson', 'Davies', 'Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Garcia', 'Fernandez', 'Lopez', 'Martinez', 'Sanchez', 'Perez', 'Gomez', 'Novak', 'Horvat', 'Kowalski', 'Nowak', 'Jansen', 'de Vries', 'Andersen'];
export const SEED_HOLDERS = FIRST.length * LAST.length;
export const seedHolder = (k: number): string => `${FIRST[k % FIRST.length]} ${LAST[Math.floor(k / FIRST.length)]}`;

// Results: mostly successes, a tail of declines spread over many codes, a few pending.
const RESULTS = [
  ['success', '000.100.110', 0.55], ['success', '000.000.000', 0.3], ['rejected', '800.100.151', 0.03], ['rejected', '800.100.100', 0.025],
  ['rejected', '800.100.153', 0.02], ['rejected', '800.100.171', 0.015], ['rejected', '100.400.080', 0.01], ['rejected', '100.390.112', 0.015],
  ['rejected', '800.120.100', 0.008], ['rejected', '100.100.303', 0.01], ['rejected', '900.100.300', 0.004], ['rejected', '800.110.100', 0.004],
  ['rejected', '100.380.401', 0.005], ['pending', '000.200.000', 0.002], ['rejected', '800.400.200', 0.0015], ['rejected', '600.100.100', 0.0005],
] as const;
const resultShares = RESULTS.map((r) => r[2] / RESULTS.reduce((a, b) => a + b[2], 0));

const INSERT_CHUNK = `
INSERT INTO transactions (id, entity_id, payment_type, status, result_code, amount_minor, currency, payment_brand, payment_method,
  merchant_transaction_id, short_id, connector_id, response, created_at, updated_at, search_terms)
SELECT id, entity_id, payment_type, status, result_code, amount_minor, currency, brand, 'CC', mtid, short_id, connector, response,
       created_at, created_at,
       -- migration 048's payment_search_terms, from the facts rather than parsing the response again
       ARRAY['bin:' || bin, 'last4:' || last4, 'holder:' || lower(holder), 'email:' || email, 'ip:' || ip, 'mtid:' || mtid,
             'currency:' || currency, 'brand:' || brand, 'type:' || payment_type]
  FROM (
    SELECT *, json_build_object(
        'id', id, 'paymentType', payment_type, 'paymentBrand', brand,
        'amount', to_char(amount_minor / 100.0, 'FM9999999990.00'), 'currency', currency, 'descriptor', short_id || ' Shop',
        'merchantTransactionId', mtid,
        'result', json_build_object('code', result_code, 'description', 'Seeded result ' || result_code),
        'card', json_build_object('bin', bin, 'last4Digits', last4, 'holder', holder, 'expiryMonth', '12', 'expiryYear', '2030'),
        'customer', json_build_object('email', email, 'ip', ip),
        'buildNumber', 'seed', 'timestamp', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MSZ'), 'ndc', md5(id)) AS response
      FROM (
        SELECT md5('seed' || i) AS id,
               ${pick('r_entity', CHANNELS.map((c) => c.id), CHANNELS.map((c) => c.share))} AS entity_id,
               ${pick('r_type', ['DB', 'PA', 'CP', 'RF', 'RV', 'CB'], [0.55, 0.2, 0.14, 0.08, 0.029, 0.001])} AS payment_type,
               ${pick('r_result', RESULTS.map((r) => r[0]), resultShares)} AS status,
               ${pick('r_result', RESULTS.map((r) => r[1]), resultShares)} AS result_code,
               (100 + exp(random() * ln(500000)))::bigint AS amount_minor,
               ${pick('r_currency', ['EUR', 'USD', 'GBP', 'CHF', 'JPY'], [0.7, 0.2, 0.08, 0.015, 0.005])} AS currency,
               ${pick('r_brand', ['VISA', 'MASTER', 'AMEX', 'DINERS', 'JCB'], [0.5, 0.35, 0.1, 0.04, 0.01])} AS brand,
               'order-' || i AS mtid,
               lpad((i % 10000)::text, 4, '0') || '.' || lpad(((i / 10000) % 10000)::text, 4, '0') || '.' || lpad((i / 100000000)::text, 4, '0') AS short_id,
               ${pick('r_connector', ['simulator', 'iso8583', 'acme-bank'], [0.6, 0.38, 0.02])} AS connector,
               (400000 + floor(power(random(), 3) * 500) * 37)::text AS bin,
               lpad(floor(random() * 10000)::text, 4, '0') AS last4,
               (ARRAY[${FIRST.map((f) => `'${f}'`).join(',')}])[1 + holder_k % ${FIRST.length}] || ' ' ||
                 (ARRAY[${LAST.map((l) => `'${l}'`).join(',')}])[1 + holder_k / ${FIRST.length}] AS holder,
               'shopper' || floor(power(random(), 2) * 5000)::int || '@example.com' AS email,
               '10.' || floor(random() * 4)::int || '.' || floor(random() * 40)::int || '.' || floor(random() * 25)::int AS ip,
               timestamptz '2026-08-01 00:00:00+00' + (i::float8 / $3 * ${DAYS} * 86400 + random() * 20) * interval '1 second' AS created_at
          FROM (SELECT i, random() AS r_entity, random() AS r_type, random() AS r_result, random() AS r_currency, random() AS r_brand,
                       random() AS r_connector, floor(power(random(), 2) * ${SEED_HOLDERS})::int AS holder_k
                  FROM generate_series($1::bigint + 1, $2::bigint) AS i) AS draws
      ) AS facts
  ) AS rows`;
