import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RoutingUsageError, runRoutingCommand } from '../../src/cli/routing-commands.js';
import { loadConfig } from '../../src/config/load-config.js';
import { randomIds, systemClock } from '../../src/domain/ids.js';
import { createEntity } from '../../src/operations/admin/create-entity.js';
import { migrate } from '../../src/storage/migrate.js';
import { createPgliteStorage } from '../../src/storage/pglite-storage.js';
import { GatewayError } from '../../src/results/gateway-error.js';

/** The route, connector and pending commands on an embedded database no gateway holds (direct). */
describe('route, connector and pending commands (command line, direct)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-routes-'));
  const config = loadConfig({ DATA_DIR: dataDir });
  let entityId = '';
  const run = (command: string, options: Record<string, string> = {}, secret = '') => runRoutingCommand(config, command, options, { env: {}, readSecret: async () => secret });

  before(async () => {
    const storage = await createPgliteStorage(join(dataDir, 'pglite'));
    await migrate(storage);
    entityId = (await createEntity({ storage, clock: systemClock, ids: randomIds }, { name: 'CLI shop' })).entityId;
    await storage.close();
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('lists the connectors and which may serve the live system', async () => {
    const connectors = (await run('connector list')) as Array<{ connectorId: string; liveCapable: boolean }>;
    assert.deepEqual(connectors.map((c) => [c.connectorId, c.liveCapable]), [['simulator', false], ['external-test-platform', false]]);
  });

  it('adds a test route with credentials from standard input, shows their names only, rotates and disables it', async () => {
    const added = (await run('route add', { connector: 'external-test-platform', system: 'test', entity: entityId, currency: 'EUR' }, '{"terminalId":"T-9","apiKey":"very-secret-key"}')) as { routeId: string; credentialNames: string[] };
    assert.deepEqual(added.credentialNames, ['apiKey', 'terminalId']);
    assert.ok(!JSON.stringify(added).includes('very-secret-key'));
    const listed = JSON.stringify(await run('route list'));
    assert.ok(listed.includes(added.routeId) && !listed.includes('very-secret-key'));
    const rotated = (await run('route credentials', { route: added.routeId }, '{"terminalId":"T-10"}')) as { credentialNames: string[] };
    assert.deepEqual(rotated.credentialNames, ['terminalId']);
    const disabled = (await run('route disable', { route: added.routeId })) as { disabledAt: string | null };
    assert.ok(disabled.disabledAt);
  });

  it('refuses a live route to a simulator, credentials that are not a JSON object (without quoting them), and missing options', async () => {
    await assert.rejects(run('route add', { connector: 'simulator', system: 'live' }), (error: unknown) => error instanceof GatewayError && error.parameterErrors?.[0]?.name === 'connector');
    await assert.rejects(run('route add', { connector: 'simulator', system: 'test' }, 'apiKey=very-secret'), (error: unknown) => error instanceof RoutingUsageError && !error.message.includes('very-secret'));
    await assert.rejects(run('route add'), (error: unknown) => error instanceof RoutingUsageError && /--connector/.test(error.message));
    await assert.rejects(run('route frobnicate'), RoutingUsageError);
  });

  it('lists pending transactions and refuses to resolve one that does not exist', async () => {
    assert.deepEqual(await run('pending list'), []);
    await assert.rejects(run('pending resolve', { transaction: 'f'.repeat(32), outcome: 'success', reason: 'ticket 7' }), (error: unknown) => error instanceof GatewayError && error.code === '700.400.580');
    await assert.rejects(run('pending resolve', { transaction: 'f'.repeat(32), outcome: 'success' }), (error: unknown) => error instanceof RoutingUsageError && /--reason/.test(error.message));
  });
});
