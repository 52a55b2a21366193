import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ssh2 from 'ssh2';
import { runCli, startGateway, type GatewayProcess } from '../support/gateway-process.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

type Json = Record<string, any>;

/**
 * Every operator command while a gateway holds the embedded database (PGlite): none may open the
 * folder itself, each goes through the running gateway's /admin API (issue 34, item 13). The
 * gateway has no WEBHOOK_ALLOWED_ADDRESSES: the webhook reaches the local receiver through the
 * entity's local receivers alone, set without a restart (item 15).
 */
describe('the command line against a running gateway on the embedded database', () => {
  let dataDir: string;
  let gateway: GatewayProcess;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gateway-cli-'));
    env = { DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_PORT: '0', WEBHOOK_ALLOWED_ADDRESSES: '' };
    gateway = await startGateway(env);
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await gateway?.stop();
    await receiver?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function ok(args: string[], input?: string): Promise<any> {
    const run = await runCli(args, env, input);
    assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
    assert.doesNotMatch(run.stderr, /stop (it|the gateway)/);
    return JSON.parse(run.stdout);
  }

  /** A command the gateway answers with a refusal: it was reached (one line, exit 1), not bypassed. */
  async function refusedByGateway(args: string[], pattern: RegExp, input?: string): Promise<void> {
    const run = await runCli(args, env, input);
    assert.equal(run.code, 1, `${args.join(' ')}: ${run.stdout}${run.stderr}`);
    assert.match(run.stderr, pattern);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  }

  it('entity and token commands', async () => {
    const merchant = (await ok(['entity', 'create', '--name', 'Shop'])) as Json;
    env['ENTITY'] = merchant['entityId'];
    assert.ok((await ok(['entity', 'list'])).some((e: Json) => e['entityId'] === merchant['entityId']));
    const entity = ['--entity', merchant['entityId']];
    await ok(['entity', 'legacy-auth', ...entity, '--off']);
    await ok(['entity', 'unknown-parameters', ...entity, '--mode', 'ignore']);
    await ok(['entity', 'three-d-secure', ...entity, '--requirement', 'always']);
    await ok(['entity', 'connector-details', ...entity, '--off']);
    await ok(['entity', 'bank-account', ...entity, '--holder', 'Shop Ltd', '--number', 'DE89370400440532013000']);
    await ok(['entity', 'bank-account', ...entity, '--remove']);
    const token = (await ok(['token', 'create', ...entity])) as Json;
    await ok(['token', 'revoke', '--token-id', token['tokenId']]);
  });

  it('webhook commands, with a local receiver set without a restart, and no test before activation', async () => {
    const entity = ['--entity', env['ENTITY']!];
    const url = receiver.url('/local');
    await refusedByGateway(['webhook', 'create', ...entity, '--url', url], /loopback address/);
    const port = new URL(url).port;
    assert.deepEqual((await ok(['webhook', 'local-receivers', ...entity, '--set', `localhost:${port}`])).localReceivers, [`localhost:${port}`]);
    assert.deepEqual((await ok(['webhook', 'local-receivers', ...entity])).localReceivers, [`localhost:${port}`]);
    const created = (await ok(['webhook', 'create', ...entity, '--url', url])) as Json;
    assert.equal(created['status'], 'pending');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.deepEqual(receiver.on('/local'), [], 'nothing is sent before the receiver holds the secret');
    receiver.setSecret('/local', created['secret']);
    const webhook = ['--webhook', created['webhookId']];
    assert.equal((await ok(['webhook', 'activate', ...webhook])).webhook.status, 'active');
    assert.equal(receiver.on('/local')[0]?.body.type, 'TEST');
    assert.equal((await ok(['webhook', 'list', ...entity]))[0].status, 'active');
    assert.equal((await ok(['webhook', 'test', ...webhook])).attempt.acknowledged, true);
    const attempts = await ok(['webhook', 'attempts', ...webhook, '--limit', '5']);
    assert.ok(attempts.length >= 2);
    await ok(['webhook', 'resend', '--delivery', attempts[0].deliveryId]);
    await ok(['webhook', 'deactivate', ...webhook]);
    await ok(['webhook', 'delete', ...webhook]);
    await ok(['webhook', 'local-receivers', ...entity, '--set', '']);
  });

  it('vault commands, with the gateway\'s own keys', async () => {
    assert.ok((await ok(['vault', 'status'])).currentMasterKeyId);
    await ok(['vault', 'rotate-key']);
    assert.deepEqual((await ok(['vault', 'find-card'], '4200000000000000\n')).registrations, []);
  });

  it('route, connector and pending commands', async () => {
    const connectors = (await ok(['connector', 'list'])) as Json[];
    assert.ok(connectors.some((c) => c['connectorId'] === 'external-test-platform'));
    const route = (await ok(['route', 'add', '--connector', 'external-test-platform', '--system', 'test', '--entity', env['ENTITY']!, '--currency', 'EUR'], '{"terminalId":"T-1"}')) as Json;
    assert.ok((await ok(['route', 'list'])).length >= 1);
    await ok(['route', 'credentials', '--route', route['routeId']], '{"terminalId":"T-2"}');
    await ok(['route', 'disable', '--route', route['routeId']]);
    await ok(['pending', 'list', '--limit', '10']);
    await refusedByGateway(['pending', 'resolve', '--transaction', 'f'.repeat(32), '--outcome', 'success', '--reason', 'checked by phone'], /200\.300\.|700\./);
  });

  it('risk commands', async () => {
    const entity = ['--entity', env['ENTITY']!];
    await ok(['risk', 'rules', 'set', ...entity, '--by', 'alice'], '{"velocity":[{"key":"card","measure":"attempts","windowMinutes":10,"max":5,"action":"reject"}]}');
    await ok(['risk', 'rules', 'show', ...entity]);
    for (const list of ['blacklist', 'whitelist']) {
      await ok(['risk', list, 'add', ...entity, '--kind', 'email', '--reason', 'test'], 'someone@example.com\n');
      assert.equal((await ok(['risk', list, 'list', ...entity])).entries?.length ?? 1, 1);
      await ok(['risk', list, 'remove', ...entity, '--kind', 'email'], 'someone@example.com\n');
    }
    await refusedByGateway(['risk', 'transaction', '--transaction', 'f'.repeat(32)], /700\.|200\.300\./);
  });

  it('settlement commands, the run included (it used to refuse while a gateway held the folder)', async () => {
    const merchant = ['--merchant', env['ENTITY']!];
    await ok(['settlement', 'fees', ...merchant, '--fixed', '0.25', '--rate-bp', '190', '--currency', 'EUR']);
    const keyFile = join(dataDir, 'operator.pub');
    writeFileSync(keyFile, ssh2.utils.generateKeyPairSync('ed25519').public);
    assert.equal((await ok(['settlement', 'sftp-key', ...merchant, '--key-file', keyFile])).merchantId, env['ENTITY']);
    await ok(['settlement', 'push-target', ...merchant, '--url', 'sftp://shop@files.shop.example/inbox'], 'the-password\n');
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    assert.equal((await ok(['settlement', 'run', '--date', yesterday])).day, yesterday);
    const today = new Date().toISOString().slice(0, 10);
    const notEnded = await runCli(['settlement', 'run', '--date', today], env);
    assert.equal(notEnded.code, 2, notEnded.stderr);
    assert.match(notEnded.stderr, /has not ended yet[^\n]*\nUsage: npm run gateway -- settlement run --date [^\n]*\n$/);
  });
});
