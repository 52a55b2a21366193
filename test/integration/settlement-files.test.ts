import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import ssh2 from 'ssh2';
import { randomIds } from '../../src/domain/ids.js';
import { reconciliationFields } from '../../src/domain/settlement/reconciliation-row.js';
import { createEntity, type CreatedEntity } from '../../src/operations/admin/create-entity.js';
import { addSftpKey } from '../../src/operations/settlement/add-sftp-key.js';
import { describeCode } from '../../src/operations/settlement/reports.js';
import { writeReconciliationFile } from '../../src/operations/settlement/write-reconciliation-file.js';
import { startSftpServer, type RunningSftpServer } from '../../src/sftp/sftp-server.js';
import { readableEd25519KeyPair } from '../../src/sftp/ed25519-key.js';
import { pushFile } from '../../src/operations/settlement/push-file.js';
import { setPushTarget } from '../../src/operations/settlement/set-push-target.js';
import { startSftpReceiver } from '../support/sftp-receiver.js';
import { merchantDayLines } from '../../src/storage/repositories/settlement-lines.js';
import { publicKeysOf } from '../../src/storage/repositories/sftp-keys.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment } from '../support/payments.js';
import { DAY_MS, ingestDay } from '../support/settlement.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const run = promisify(execFile);

/** The header as the specification lists it ("Reconciliation file"), commas turned into the file's semicolons. */
const SPEC_HEADER = 'ReconciliationType, PaymentType, Cashflow, ClearingInstituteMerchantId, MerchantAccountId, MerchantAccountName, PspId, DivisionId, MerchantId, SettlementTxId, UniqueID, ShortId, ConnectorTxId1, ConnectorTxId2, ConnectorTxId3, Amount, Currency, Brand, TxRequestTime, SettlementAmount, SettlementCurrency, SettlementFee, SettlementFxRate, SettlementDate, SettlementStatus, Descriptor, AccountNumberLast4, BankCode, AccountHolder, ReasonCode, ReasonDesc, SettlementFileFormat, ClearingInsitituteName, MatchingStatus, MatchedTransactions, ChargebackId'.split(', ').join(';');

async function sftpBatch(port: number, user: string, keyFile: string, commands: string, dir: string): Promise<{ ok: boolean; output: string }> {
  const batch = join(dir, `batch-${randomIds.id()}`);
  writeFileSync(batch, commands);
  const args = ['-b', batch, '-P', String(port), '-i', keyFile, '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null',
    '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes', '-o', 'LogLevel=ERROR', `${user}@127.0.0.1`];
  try {
    const { stdout, stderr } = await run('sftp', args, { cwd: dir, timeout: 30_000 });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

for (const database of testDatabases()) {
  describe(`reconciliation files and their SFTP delivery (${database.name})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'settlement-files-'));
    const filesDir = join(dir, 'files');
    let t: TestApp;
    let psp: CreatedEntity;
    let division: CreatedEntity;
    let merchant: CreatedEntity;
    let other: CreatedEntity;
    let server: RunningSftpServer | undefined;
    after(async () => {
      await server?.close();
      await t?.close();
      await t?.storage.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('writes the merchant\'s day with the spec\'s header byte for byte, and the file parses back to the records', async () => {
      t = await startTestApp(await database.open());
      const deps = { storage: t.storage, clock: t.clock, ids: randomIds };
      psp = await createEntity(deps, { name: 'Acme Payments', kind: 'psp' });
      division = await createEntity(deps, { name: 'Acme Retail', kind: 'division', parentId: psp.entityId });
      merchant = await createEntity(deps, { name: 'Shop', parentId: division.entityId });
      other = await createEntity(deps, { name: 'Other shop' });
      for (const amount of ['10.00', '20.13', '30.66']) assert.equal((await cardPayment(t, merchant, 'DB', amount, { descriptor: 'Shop; "Winter" sale' })).statusCode, 200);
      assert.equal((await cardPayment(t, other, 'DB', '5.00')).statusCode, 200);
      t.clock.advance(DAY_MS);
      await ingestDay(t, '2026-11-23');

      const written = await writeReconciliationFile(t.storage, filesDir, merchant.entityId, '2026-11-23');
      assert.equal(written.lines, 4, 'three settled lines and the batch fee');
      const text = readFileSync(written.path, 'utf8');
      assert.equal(text.slice(0, text.indexOf('\n')), SPEC_HEADER);
      const [header, ...rows] = parse(text, { delimiter: ';' }) as string[][];
      assert.equal(header!.join(';'), SPEC_HEADER);
      const lines = await merchantDayLines(t.storage, merchant.entityId, '2026-11-23', '', 100, describeCode);
      assert.deepEqual(rows, lines.map(reconciliationFields));
      const column = (name: string) => header!.indexOf(name);
      for (const row of rows) {
        assert.deepEqual([row[column('PspId')], row[column('DivisionId')], row[column('MerchantId')]], [psp.entityId, division.entityId, merchant.entityId]);
      }
      const settled = rows.filter((r) => r[0] === 'SETTLED');
      assert.ok(settled.every((r) => r[column('Descriptor')] === 'Shop; "Winter" sale'), 'a semicolon and quotes survive the round trip');
      assert.deepEqual(settled.map((r) => r[column('SettlementStatus')]).sort(), ['FAILED', 'SUCCESS', 'SUCCESS']);
      assert.ok(rows.some((r) => r[0] === 'FEE' && r[1] === 'BATCH' && r[2] === 'NEG'));
      const otherFile = await writeReconciliationFile(t.storage, filesDir, other.entityId, '2026-11-23');
      assert.equal(otherFile.lines, 2);
    });

    it('a PSP or division credential reads reports but cannot pay (800.900.301)', async () => {
      for (const entity of [psp, division]) {
        const refused = await cardPayment(t, entity, 'DB', '10.00');
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(JSON.parse(refused.body).result.code, '800.900.301');
        const report = await t.app.inject({ method: 'GET', url: `/reports/v1/reconciliations/aggregations?entityId=${entity.entityId}&date.from=2026-11-01&date.to=2026-11-30`, headers: { authorization: `Bearer ${entity.accessToken}` } });
        assert.notEqual(report.statusCode, 403, report.body);
      }
    });

    it('serves a merchant its file over SFTP to Debian\'s OpenSSH client, and another merchant\'s key sees nothing of it', async () => {
      const deps = { storage: t.storage, clock: t.clock, ids: randomIds };
      const keys: Record<string, string> = {};
      for (const who of ['merchant', 'other']) {
        keys[who] = join(dir, `id_${who}`);
        await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', who, '-f', keys[who]!]);
      }
      await addSftpKey(deps, merchant.entityId, readFileSync(`${keys['merchant']}.pub`, 'utf8'));
      await addSftpKey(deps, other.entityId, readFileSync(`${keys['other']}.pub`, 'utf8'));
      const hostKey = readableEd25519KeyPair().private;
      server = await startSftpServer({ host: '127.0.0.1', port: 0, hostKey, filesDir, keys: { publicKeysOf: (id) => publicKeysOf(t.storage, id) } });

      const fetched = await sftpBatch(server.port, merchant.entityId, keys['merchant']!, 'ls\nget reconciliation-2026-11-23.csv fetched.csv\n', dir);
      assert.ok(fetched.ok, fetched.output);
      assert.match(fetched.output, /reconciliation-2026-11-23\.csv/);
      assert.deepEqual(readFileSync(join(dir, 'fetched.csv')), readFileSync(join(filesDir, merchant.entityId, 'reconciliation-2026-11-23.csv')));

      const own = await sftpBatch(server.port, other.entityId, keys['other']!, 'get reconciliation-2026-11-23.csv other.csv\n', dir);
      assert.ok(own.ok, own.output);
      assert.match(readFileSync(join(dir, 'other.csv'), 'utf8'), /^ReconciliationType;/);
      assert.doesNotMatch(readFileSync(join(dir, 'other.csv'), 'utf8'), new RegExp(merchant.entityId));
      for (const path of [`../${merchant.entityId}/reconciliation-2026-11-23.csv`, `/${merchant.entityId}/reconciliation-2026-11-23.csv`, `/../../files/${merchant.entityId}/reconciliation-2026-11-23.csv`]) {
        const escaped = await sftpBatch(server.port, other.entityId, keys['other']!, `get ${path} stolen.csv\n`, dir);
        assert.equal(escaped.ok, false, `${path}: ${escaped.output}`);
      }
      const listing = await sftpBatch(server.port, other.entityId, keys['other']!, 'ls -a /\nls ..\n', dir);
      assert.doesNotMatch(listing.output, new RegExp(merchant.entityId));
      const wrongUser = await sftpBatch(server.port, merchant.entityId, keys['other']!, 'ls\n', dir);
      assert.equal(wrongUser.ok, false, 'another merchant\'s key does not log in as the merchant');
      const upload = await sftpBatch(server.port, merchant.entityId, keys['merchant']!, 'put fetched.csv uploaded.csv\n', dir);
      assert.equal(upload.ok, false, 'read-only');
    });

    it('pushes the file to the merchant\'s own SFTP server, with the password sealed and the address checked', async () => {
      const receiver = await startSftpReceiver('shop', 'secret-password-1');
      try {
        const deps = { storage: t.storage, clock: t.clock, ids: randomIds, vault: t.vault };
        const refused = setPushTarget({ ...deps, targets: { httpsOnly: false, allowedAddresses: [] } }, { merchantId: merchant.entityId, url: `sftp://shop@127.0.0.1:${receiver.port}/inbox`, password: 'secret-password-1' });
        await assert.rejects(refused, (error: any) => error.parameterErrors?.[0]?.name === 'url', 'a loopback server is refused unless allow-listed');
        const targets = { httpsOnly: false, allowedAddresses: ['127.0.0.1/32'] };
        const live = setPushTarget({ ...deps, targets: { ...targets, httpsOnly: true } }, { merchantId: merchant.entityId, url: `ftp://shop@127.0.0.1:${receiver.port}/inbox`, password: 'x' });
        await assert.rejects(live, (error: any) => /sftp|ftps/.test(error.parameterErrors?.[0]?.message ?? ''), 'no plain FTP on the live system');
        const stored = await setPushTarget({ ...deps, targets }, { merchantId: merchant.entityId, url: `sftp://shop@127.0.0.1:${receiver.port}/inbox`, password: 'secret-password-1' });
        assert.equal(stored.url, `sftp://shop@127.0.0.1:${receiver.port}/inbox`);
        const { rows } = await t.storage.query<{ url: string; sealed: Uint8Array }>('SELECT url, sealed_password AS sealed FROM settlement_push_targets');
        assert.ok(!Buffer.from(rows[0]!.sealed).toString('latin1').includes('secret-password-1'), 'the password is sealed');
        const path = join(filesDir, merchant.entityId, 'reconciliation-2026-11-23.csv');
        assert.equal(await pushFile({ storage: t.storage, vault: t.vault, targets }, merchant.entityId, path), true);
        assert.deepEqual(receiver.files.get('/inbox/reconciliation-2026-11-23.csv'), readFileSync(path));
        assert.equal(await pushFile({ storage: t.storage, vault: t.vault, targets }, other.entityId, path), false, 'no target, no push');
      } finally {
        await receiver.close();
      }
    });

    it('abandons a push whose server stops answering in the middle of the transfer', { timeout: 30_000 }, async () => {
      const stalled = await startSftpReceiver('shop', 'secret-password-1', { stallWrites: true });
      try {
        const deps = { storage: t.storage, clock: t.clock, ids: randomIds, vault: t.vault };
        const targets = { httpsOnly: false, allowedAddresses: ['127.0.0.1/32'] };
        await setPushTarget({ ...deps, targets }, { merchantId: merchant.entityId, url: `sftp://shop@127.0.0.1:${stalled.port}/inbox`, password: 'secret-password-1' });
        const path = join(filesDir, merchant.entityId, 'reconciliation-2026-11-23.csv');
        const started = Date.now();
        await assert.rejects(pushFile({ storage: t.storage, vault: t.vault, targets, timeoutMs: 1_500 }, merchant.entityId, path), /abandoned after 1500 ms/);
        assert.ok(Date.now() - started < 15_000, `abandoned in ${Date.now() - started} ms`);
      } finally {
        await stalled.close();
      }
    });
  });
}
