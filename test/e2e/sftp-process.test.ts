/**
 * `npm run sftp` (issue 29, item 8): the SFTP server in a process of its own serves a merchant
 * its file, on PostgreSQL and on the embedded database (keys through the running gateway); the
 * built entry point is the one package.json's script runs.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import SftpClient from 'ssh2-sftp-client';
import { createBenchSchema, createMerchant, type BenchSchema } from '../../bench/support/postgres.js';
import { randomIds, systemClock } from '../../src/domain/ids.js';
import { addSftpKey } from '../../src/operations/settlement/add-sftp-key.js';
import { createPgStorage } from '../../src/storage/pg-storage.js';
import { merchantKeyPair } from '../support/sftp-client.js';
import { startGateway, runCli } from '../support/gateway-process.js';
import { startSftpProcess, type SftpProcess } from '../support/sftp-process.js';

const url = process.env['TEST_DATABASE_URL'] || undefined;
const FILE = 'reconciliation-2026-11-23.csv';

describe('npm run sftp', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sftp-process-'));
  let schema: BenchSchema | undefined;
  let server: SftpProcess | undefined;
  after(async () => {
    await server?.stop();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('on the embedded database, refuses to start without the gateway that holds it, saying why', async () => {
    const refused = await startSftpProcess({ DATABASE_URL: '', SFTP_PORT: '0', DATA_DIR: join(dir, 'nobody') }).then(() => undefined, (error: { code: number; output: string }) => error);
    assert.equal(refused?.code, 1);
    assert.match(refused!.output, /start it first/);
  });

  it('on the embedded database, serves a merchant its file with the keys the running gateway holds', { timeout: 180_000 }, async () => {
    const dataDir = join(dir, 'embedded');
    const filesDir = join(dataDir, 'files');
    const env = { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', SETTLEMENT_FILES_DIR: filesDir, SFTP_PORT: '0', SFTP_HOST_KEY_FILE: join(dataDir, 'host_key') };
    const merchant = JSON.parse((await runCli(['entity', 'create', '--name', 'SFTP shop'], env)).stdout) as { entityId: string };
    const keys = merchantKeyPair();
    writeFileSync(join(dir, 'embedded_key.pub'), keys.publicKey);
    const added = await runCli(['settlement', 'sftp-key', '--merchant', merchant.entityId, '--key-file', join(dir, 'embedded_key.pub')], env);
    assert.equal(added.code, 0, added.stderr);
    const gateway = await startGateway({ ...env, SFTP_IN_GATEWAY: 'false' });
    let own: SftpProcess | undefined;
    try {
      assert.doesNotMatch(gateway.output(), /sftp server ready/, 'SFTP_IN_GATEWAY=false: the gateway serves no SFTP');
      own = await startSftpProcess(env);
      mkdirSync(join(filesDir, merchant.entityId), { recursive: true });
      writeFileSync(join(filesDir, merchant.entityId, FILE), 'ReconciliationType;PaymentType\n');
      const client = new SftpClient();
      await client.connect({ host: '127.0.0.1', port: own.port, username: merchant.entityId, privateKey: keys.privateKey, readyTimeout: 30_000 });
      try {
        assert.equal(((await client.get(`/${FILE}`)) as Buffer).toString(), 'ReconciliationType;PaymentType\n');
      } finally {
        await client.end();
      }
      const stranger = merchantKeyPair();
      await assert.rejects(new SftpClient().connect({ host: '127.0.0.1', port: own.port, username: merchant.entityId, privateKey: stranger.privateKey, readyTimeout: 30_000 }), /authentication/i);
    } finally {
      await own?.stop();
      await gateway.stop();
    }
  });

  it('serves a merchant its file from a process of its own', { skip: url ? false : 'TEST_DATABASE_URL not set: npm run sftp needs PostgreSQL', timeout: 120_000 }, async () => {
    schema = await createBenchSchema('e2e_sftp', url);
    const filesDir = join(dir, 'files');
    server = await startSftpProcess({ DATABASE_URL: schema.url, SFTP_PORT: '0', SETTLEMENT_FILES_DIR: filesDir, SFTP_HOST_KEY_FILE: join(dir, 'host_key') });
    const merchant = await createMerchant(schema.url, 'SFTP shop');
    const keys = merchantKeyPair();
    const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
    try {
      await addSftpKey({ storage, clock: systemClock, ids: randomIds }, merchant.entityId, keys.publicKey);
    } finally {
      await storage.close();
    }
    const content = `ReconciliationType;PaymentType\nPAYMENT;DB\n`;
    mkdirSync(join(filesDir, merchant.entityId), { recursive: true });
    writeFileSync(join(filesDir, merchant.entityId, FILE), content);

    const client = new SftpClient();
    await client.connect({ host: '127.0.0.1', port: server.port, username: merchant.entityId, privateKey: keys.privateKey, readyTimeout: 30_000 });
    try {
      assert.deepEqual((await client.list('/')).map((entry) => entry.name), [FILE]);
      assert.equal(((await client.get(`/${FILE}`)) as Buffer).toString(), content);
    } finally {
      await client.end();
    }
    assert.equal(await server.stop(), 0, 'stops cleanly on SIGTERM');
  });
});
