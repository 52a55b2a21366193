import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RiskUsageError, runRiskCommand } from '../../src/cli/risk-commands.js';
import { loadConfig } from '../../src/config/load-config.js';
import { randomIds, systemClock } from '../../src/domain/ids.js';
import { createEntity } from '../../src/operations/admin/create-entity.js';
import { GatewayError } from '../../src/results/gateway-error.js';
import { migrate } from '../../src/storage/migrate.js';
import { createPgliteStorage } from '../../src/storage/pglite-storage.js';

/** The risk commands on an embedded database no gateway holds (direct, as routing-cli does). */
describe('risk commands (command line, direct)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-risk-'));
  const config = loadConfig({ DATA_DIR: dataDir });
  let entityId = '';
  const run = (words: string, options: Record<string, string> = {}, stdin = '') =>
    runRiskCommand(config, words.split(' '), options, { env: { USER: 'ops' }, readSecret: async () => stdin });

  before(async () => {
    const storage = await createPgliteStorage(join(dataDir, 'pglite'));
    await migrate(storage);
    entityId = (await createEntity({ storage, clock: systemClock, ids: randomIds }, { name: 'CLI shop' })).entityId;
    await storage.close();
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('sets a rule set from standard input, versioned with who changed it', async () => {
    const saved = (await run('rules set', { entity: entityId, by: 'alice' }, '{"reviewAtScore": 400}')) as { version: number; changedBy: string };
    assert.deepEqual([saved.version, saved.changedBy], [1, 'alice']);
    await run('rules set', { entity: entityId }, '{"reviewAtScore": 500}');
    const shown = (await run('rules show', { entity: entityId })) as { versions: { version: number; changedBy: string }[]; changes: unknown[] };
    assert.deepEqual(shown.versions.map((v) => [v.version, v.changedBy]), [[2, 'cli:ops'], [1, 'alice']]);
    await assert.rejects(run('rules set', { entity: entityId }, '{"velocity": 3}'), (e: unknown) => e instanceof GatewayError && e.parameterErrors?.[0]?.name === 'rules');
  });

  it('blacklists a card read from standard input, shows only BIN and last four, and removes it whatever its formatting', async () => {
    const added = (await run('blacklist add', { entity: entityId, kind: 'card', reason: 'stolen' }, '4200 0000 0000 0000\n')) as { shown: string; added: boolean };
    assert.deepEqual([added.shown, added.added], ['420000…0000', true]);
    const listed = JSON.stringify(await run('blacklist list', { entity: entityId }));
    assert.ok(listed.includes('420000…0000') && !listed.includes('4200000000000000'));
    const removed = (await run('blacklist remove', { entity: entityId, kind: 'card' }, '4200-0000-0000-0000')) as { removed: boolean };
    assert.equal(removed.removed, true);
    assert.deepEqual(((await run('blacklist list', { entity: entityId })) as { entries: unknown[] }).entries, []);
  });

  it('whitelists an e-mail; refuses a value on the command line, an invalid card (without quoting it) and unknown commands', async () => {
    assert.equal(((await run('whitelist add', { entity: entityId, kind: 'email' }, 'VIP@example.com')) as { shown: string }).shown, 'vip@example.com');
    // Shown as written; found by any form of the address (docs/risk.md, canonicalEmail).
    assert.deepEqual(((await run('whitelist list', { entity: entityId })) as { entries: { shown: string }[] }).entries.map((e) => e.shown), ['vip@example.com']);
    assert.equal(((await run('whitelist remove', { entity: entityId, kind: 'email' }, '"VIP+cli"@example.com.\n')) as { removed: boolean }).removed, true);
    await assert.rejects(run('blacklist add', { entity: entityId, kind: 'card' }, ''), RiskUsageError);
    await assert.rejects(run('blacklist add', { entity: entityId, kind: 'card' }, '4200000000000001'), (e: unknown) => e instanceof GatewayError && !JSON.stringify(e.parameterErrors).includes('4200000000000001'));
    await assert.rejects(run('blacklist frobnicate', { entity: entityId }), RiskUsageError);
    await assert.rejects(run('blacklist list'), (e: unknown) => e instanceof RiskUsageError && /--entity/.test(e.message));
  });

  it('restores a rule set version and imports a CSV from standard input, audited', async () => {
    const restored = (await run('rules restore', { entity: entityId, version: '1', by: 'carol' })) as { version: number; restoredFrom: number; rules: { reviewAtScore: number } };
    assert.deepEqual([restored.restoredFrom, restored.rules.reviewAtScore], [1, 400]);
    const imported = (await run('blacklist import', { entity: entityId }, 'kind,value,reason\nemail,fraud@example.com,chargebacks\ncard,4012888888881881\n')) as { added: number; entries: string[] };
    assert.deepEqual(imported.entries, ['email fraud@example.com', 'card 401288…1881']);
    await assert.rejects(run('blacklist import', { entity: entityId }, 'email,ok@example.com\ncard,4012888888881882\n'),
      (e: unknown) => e instanceof GatewayError && JSON.stringify(e.parameterErrors).includes('line 2:') && !JSON.stringify(e.parameterErrors).includes('4012888888881882'));
    const storage = await createPgliteStorage(join(dataDir, 'pglite'));
    try {
      const { rows } = await storage.query<{ action: string; actor_kind: string }>("SELECT action, actor_kind FROM audit_log WHERE action IN ('risk.rules.restore', 'risk.lists.import') ORDER BY seq");
      assert.deepEqual(rows.map((r) => [r.action, r.actor_kind]), [['risk.rules.restore', 'cli'], ['risk.lists.import', 'cli']]);
    } finally {
      await storage.close();
    }
  });
});
