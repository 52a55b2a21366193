import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runVaultCommand } from '../../src/cli/vault-commands.js';
import { ConfigError, loadConfig } from '../../src/config/load-config.js';
import { loadVaultConfig } from '../../src/config/vault-config.js';
import { masterKeyFromHex } from '../../src/domain/vault/index.js';
import { masterKeyRingOf, openVault } from '../../src/operations/registrations/open-vault.js';
import { randomIds } from '../../src/domain/ids.js';
import { migrate } from '../../src/storage/migrate.js';
import { createPgliteStorage } from '../../src/storage/pglite-storage.js';
import { SUCCESS_PATTERN } from '../support/payments.js';
import { payWithRegistration, postRegistration } from '../support/registrations.js';
import { ManualClock, startTestApp } from '../support/test-app.js';

const NEW_KEY = 'ab'.repeat(32);

/** A gateway on the folder's embedded database with the vault its configuration gives. */
async function withGateway<T>(dataDir: string, use: (t: Awaited<ReturnType<typeof startTestApp>>) => Promise<T>): Promise<T> {
  const storage = await createPgliteStorage(join(dataDir, 'pglite'));
  await migrate(storage);
  const vault = openVault({ storage, clock: new ManualClock(), ids: randomIds }, masterKeyRingOf(loadVaultConfig({}, loadConfig({ DATA_DIR: dataDir }))));
  const t = await startTestApp(storage, { env: { LOG_LEVEL: 'warn' }, vault });
  try {
    return await use(t);
  } finally {
    await t.close();
    await storage.close();
  }
}

describe('vault configuration and the vault command line (embedded database)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-vault-'));
  const config = loadConfig({ DATA_DIR: dataDir });
  const io = (env: Record<string, string> = {}, secret = '') => ({ env, readSecret: async () => secret });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('the test system makes its own key file once, readable by its owner only', () => {
    const first = loadVaultConfig({}, config);
    assert.equal(first.source, 'local key file');
    assert.match(first.masterKeyHex, /^[0-9a-f]{64}$/);
    assert.equal(statSync(join(dataDir, 'vault-master-key')).mode & 0o777, 0o600);
    assert.equal(loadVaultConfig({}, config).masterKeyHex, first.masterKeyHex);
  });

  it('the live system refuses to start without a key, and no error quotes a key', () => {
    assert.throws(() => loadVaultConfig({}, { system: 'live', dataDir }), (error: unknown) => error instanceof ConfigError && /VAULT_MASTER_KEY/.test(error.message));
    const almost = `${'12'.repeat(31)}zz`;
    assert.throws(() => loadVaultConfig({ VAULT_MASTER_KEY: almost }, config), (error: unknown) => error instanceof ConfigError && !error.message.includes(almost.slice(0, 16)));
    assert.throws(() => loadVaultConfig({ VAULT_MASTER_KEY: NEW_KEY, VAULT_MASTER_KEY_FILE: '/nonexistent' }, config), ConfigError);
    assert.equal(loadVaultConfig({ VAULT_MASTER_KEY: NEW_KEY.toUpperCase() }, { system: 'live', dataDir }).masterKeyHex, NEW_KEY);
  });

  it('finds a card\'s registrations, rotates offline to VAULT_MASTER_KEY_NEW, and the registrations still pay', async () => {
    const oldKeyId = masterKeyFromHex(loadVaultConfig({}, config).masterKeyHex).id;
    const registrationId = await withGateway(dataDir, async (t) => {
      const merchant = await t.createMerchant();
      const id = (await postRegistration(t, merchant)).json().id as string;
      return { id, merchant };
    });

    const found = (await runVaultCommand('vault find-card', {}, config, io({}, '4200 0000 0000 0000\n'))) as Array<{ id: string }>;
    assert.deepEqual(found.map((row) => row.id), [registrationId.id]);

    const report = (await runVaultCommand('vault rotate-key', {}, config, io({ VAULT_MASTER_KEY_NEW: NEW_KEY }))) as Record<string, any>;
    assert.equal(report['rewrapped'], 2, JSON.stringify(report));
    assert.notEqual(report['currentMasterKeyId'], oldKeyId);
    assert.equal(readFileSync(join(dataDir, 'vault-master-key'), 'utf8').trim(), NEW_KEY, 'the local key file now holds the new key');

    await withGateway(dataDir, async (t) => {
      const paid = await payWithRegistration(t, registrationId.merchant, registrationId.id);
      assert.match(paid.json().result.code, SUCCESS_PATTERN, paid.body);
    });
  });

  it('refuses unknown commands and kinds', async () => {
    await assert.rejects(runVaultCommand('vault melt', {}, config, io()), /unknown command/);
    await assert.rejects(runVaultCommand('vault find-card', { kind: 'cvv' }, config, io({}, '123')), /--kind/);
  });
});
