/**
 * Every shell example of README.md and docs/*.md, run as copied against a fresh gateway process
 * (started as `npm start` starts it, on a fresh embedded database).
 *
 * How a block is run: as one bash script (`set -eo pipefail`), in a scratch folder holding the
 * gateway's output as `gateway.log`; `npm …` runs in the repository, `curl` is curl whose status and
 * body the test keeps. What a reader fills in is filled in, and nothing else is changed:
 *  - `http://127.0.0.1:8080` and `http://localhost:8080` → the fresh gateway's address;
 *  - `<entityId>`, `<merchantId>`, `<id>` → the demo merchant's entity id; `<accessToken>` → its token;
 *  - the variables the docs name, set in the environment: ENTITY and MERCHANT (the demo merchant the
 *    start printed), TOKEN (its token), ADMIN_TOKEN (DATA_DIR/admin-token), PASSWORD, and, made fresh
 *    for each block that names them: PAYMENT_ID (a 92.00 EUR DB with merchantTransactionId order-17),
 *    REGISTRATION (a card with its initial CIT payment), SCHEDULE (a monthly schedule of it), ROUTE
 *    (a route of the demo merchant).
 * docs/webhooks.md's receiver (JavaScript) runs as copied too, on a free port instead of 8000.
 * What a block must answer: every command exits 0; a curl answers the HTTP status the comment under
 * it names (`# 404 {…}`), else a status below 400, and one of the result codes that comment names.
 * A block not meant to be run as copied (it starts servers, needs production or days yet to come)
 * carries `<!-- not run by docs-examples.test.ts: reason -->` on the line above its fence; one the
 * docs say needs the gateway stopped carries `<!-- docs-examples.test.ts: run with the gateway
 * stopped -->` and runs last, after the gateway stopped.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scratchDataDir } from '../../bench/support/node-process.js';
import { startGateway, type GatewayProcess } from '../support/gateway-process.js';
import { documentedBlocks, withPlaceholdersFilled, type DocBlock } from './support/doc-blocks.js';
import { freePort } from '../support/free-port.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Blocks a reader cannot run as copied; each says why above its fence. Kept few on purpose. */
const NOT_RUN_MAX = 14;

const PRELUDE = `set -eo pipefail
__calls=0
curl() {
  __calls=$((__calls + 1))
  command curl "$@" -o "$DOCS_CALLS/$__calls.body" -w '%{http_code}' > "$DOCS_CALLS/$__calls.status"
  cat "$DOCS_CALLS/$__calls.body"; echo
}
npm() { (cd "$DOCS_ROOT" && command npm "$@"); }
`;

interface Merchant {
  readonly entityId: string;
  readonly accessToken: string;
}

type Json = Record<string, any>;

async function call(url: string, token: string, method: string, path: string, fields?: Record<string, string>): Promise<Json> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(fields ? { body: new URLSearchParams(fields) } : {}),
  });
  const body = (await response.json()) as Json;
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

const CARD = { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' };

/** What a block's variables name, made fresh for the block. */
async function fixturesFor(block: DocBlock, gateway: GatewayProcess, merchant: Merchant, adminToken: string): Promise<Record<string, string>> {
  const api = (method: string, path: string, fields?: Record<string, string>) => call(gateway.url, merchant.accessToken, method, path, fields);
  const names = (name: string) => block.script.includes(`$${name}`);
  const values: Record<string, string> = {};
  const entityId = merchant.entityId;
  if (names('PAYMENT_ID')) {
    const paid = await api('POST', '/v1/payments', { entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', 'card.cvv': '123', merchantTransactionId: 'order-17', ...CARD });
    values['PAYMENT_ID'] = paid['id'];
  }
  if (names('REGISTRATION') || names('SCHEDULE')) {
    const registration = await api('POST', '/v1/registrations', { entityId, ...CARD });
    values['REGISTRATION'] = registration['id'];
    await api('POST', `/v1/registrations/${registration['id']}/payments`, {
      entityId, amount: '9.90', currency: 'EUR', paymentType: 'DB', 'card.cvv': '123',
      'standingInstruction.type': 'RECURRING', 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT',
    });
  }
  if (names('SCHEDULE')) {
    const schedule = await api('POST', '/scheduling/v1/schedules', { entityId, registrationId: values['REGISTRATION']!, amount: '9.90', currency: 'EUR', paymentType: 'DB', 'job.expression': '0 0 6 1 * ? *' });
    values['SCHEDULE'] = schedule['id'];
  }
  if (names('ROUTE')) {
    const response = await fetch(`${gateway.url}/admin/routes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
      body: new URLSearchParams({ connector: 'simulator', entity: entityId, currency: 'USD', 'credentials[apiKey]': 'docs-example' }),
    });
    const body = (await response.json()) as Json;
    assert.equal(response.status, 201, JSON.stringify(body));
    values['ROUTE'] = body['routeId'] ?? body['id'];
  }
  return values;
}


async function runScript(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; output: string }> {
  const child = spawn('bash', ['-c', PRELUDE + script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

function checkCalls(block: DocBlock, calls: string, output: string): void {
  const curls = block.commands.filter((command) => command.text.startsWith('curl '));
  const made = readdirSync(calls).filter((name) => name.endsWith('.status')).length;
  assert.equal(made, curls.length, `${block.where}: every curl ran\n${output}`);
  curls.forEach((command, index) => {
    const status = Number(readFileSync(join(calls, `${index + 1}.status`), 'utf8'));
    const text = readFileSync(join(calls, `${index + 1}.body`), 'utf8');
    const said = `${block.where}, \`${command.text.slice(0, 120)}…\` answered ${status} ${text.slice(0, 600)}`;
    if (command.status !== undefined) assert.equal(status, command.status, said);
    else assert.ok(status < 400, said);
    if (command.resultCodes.length > 0) assert.ok(command.resultCodes.includes((JSON.parse(text) as Json)['result']?.['code']), `${said}\nexpected one of ${command.resultCodes.join(', ')}`);
  });
}

describe('every shell example of README.md and docs/, run as copied', { timeout: 600_000 }, () => {
  const blocks = documentedBlocks(ROOT);
  const dataDir = scratchDataDir();
  let gateway: GatewayProcess;
  let merchant: Merchant;
  let adminToken = '';

  before(async () => {
    // The receiver of docs/webhooks.md listens on this host, which webhooks reach only when allowed.
    gateway = await startGateway({ DATA_DIR: dataDir, GATEWAY_PROCESSES: '1', WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1/32' });
    const output = gateway.output();
    merchant = { entityId: /entityId:\s+([0-9a-f]{32})/.exec(output)![1]!, accessToken: /accessToken:\s+(\S+)/.exec(output)![1]! };
    adminToken = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
  });
  after(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('few blocks are marked as not run, each with its reason', () => {
    const marked = blocks.filter((block) => block.notRun !== undefined);
    assert.ok(marked.length <= NOT_RUN_MAX, marked.map((block) => `${block.where}: ${block.notRun}`).join('\n'));
    assert.ok(blocks.length - marked.length >= 15, 'most blocks run');
  });

  it("docs/webhooks.md's receiver, copied (its port aside), decrypts the gateway's notification", async () => {
    const doc = readFileSync(join(ROOT, 'docs/webhooks.md'), 'utf8');
    const receiver = /```js\n([\s\S]*?createDecipheriv[\s\S]*?)```/.exec(doc)?.[1];
    assert.ok(receiver?.includes('.listen(8000)'), 'docs/webhooks.md shows its receiver on port 8000');
    const port = await freePort();
    const admin = (method: string, path: string, fields?: Record<string, string>) => call(gateway.url, adminToken, method, path, fields);
    const created = await admin('POST', '/admin/webhooks', { entity: merchant.entityId, url: `http://127.0.0.1:${port}/webhooks` });
    const folder = mkdtempSync(join(tmpdir(), 'docs-receiver-'));
    writeFileSync(join(folder, 'receiver.mjs'), receiver!.replace('.listen(8000)', `.listen(${port})`));
    const child = spawn(process.execPath, ['receiver.mjs'], { cwd: folder, env: { ...process.env, WEBHOOK_SECRET: created['secret'] }, stdio: 'ignore' });
    try {
      // Activation sends a test notification and succeeds only on the receiver's 2xx: a 400 is a failed tag check.
      let activated: Json | undefined;
      for (let tries = 0; typeof activated?.['attempt']?.['httpStatus'] !== 'number' && tries < 50; tries += 1) {
        // Until the receiver listens, the attempt fails without an HTTP status.
        if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 200));
        activated = await admin('POST', `/admin/webhooks/${created['webhookId']}/activate`).catch(() => undefined);
      }
      assert.equal(activated?.['attempt']?.['httpStatus'], 200, JSON.stringify(activated));
      assert.equal(activated?.['webhook']?.['status'], 'active', JSON.stringify(activated));
    } finally {
      child.kill('SIGTERM');
      rmSync(folder, { recursive: true, force: true });
    }
  });

  for (const block of blocks) {
    it(`${block.where}`, { skip: block.notRun }, async () => {
      const folder = mkdtempSync(join(tmpdir(), 'docs-example-'));
      try {
        if (block.gatewayStopped) assert.equal(await gateway.stop(), 0, gateway.output());
        const calls = join(folder, 'calls');
        await runScript(`mkdir -p "${calls}"`, {}, folder);
        writeFileSync(join(folder, 'gateway.log'), gateway.output());
        const env = {
          DOCS_ROOT: ROOT, DOCS_CALLS: calls, DATA_DIR: dataDir,
          ENTITY: merchant.entityId, MERCHANT: merchant.entityId, TOKEN: merchant.accessToken, ADMIN_TOKEN: adminToken, PASSWORD: 'docs-example-password',
          ...(block.gatewayStopped ? {} : await fixturesFor(block, gateway, merchant, adminToken)),
        };
        const script = withPlaceholdersFilled(block.script, { baseUrl: gateway.url, ...merchant });
        const run = await runScript(script, env, folder);
        assert.equal(run.code, 0, `${block.where} exited ${run.code}:\n${run.output}`);
        checkCalls(block, calls, run.output);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });
  }
});
