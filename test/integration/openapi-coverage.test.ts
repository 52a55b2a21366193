/**
 * The API reference covers the whole HTTP surface and its examples are true: every route the
 * public app and the admin app (ADMIN_PORT) register is in /openapi.json or on the list of
 * deliberately undocumented ones (src/http/openapi/undocumented-routes.ts); every documented
 * operation is registered; and every operation's example request, sent to the app, gets a status
 * the document lists for it, with the top-level fields and result code of the documented example
 * answer for that status. The HTTP surface does not depend on the database: PGlite alone.
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { buildAdminApp } from '../../src/app.js';
import { underUndocumentedPrefix, UNDOCUMENTED_ROUTES } from '../../src/http/openapi/undocumented-routes.js';
import { testDatabases } from '../support/databases.js';
import { documentedOperations, documentedStatuses, exampleAnswer, exampleRequest, registeredRoutes, type Caller, type DocumentedOperation, type OpenApiDocument } from '../support/openapi-examples.js';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

const key = (operation: DocumentedOperation) => `${operation.method} ${operation.path}`;

function mismatch(operation: DocumentedOperation, status: number, body: string): string | undefined {
  if (!documentedStatuses(operation.operation).includes(status)) return `answered ${status}, documented ${documentedStatuses(operation.operation).join(', ')}: ${body.slice(0, 300)}`;
  const example = exampleAnswer(operation.operation, status);
  if (example === null || typeof example !== 'object' || Array.isArray(example)) return undefined;
  const answer = JSON.parse(body) as Record<string, any>;
  const missing = Object.keys(example).filter((name) => !(name in answer));
  if (missing.length > 0) return `the answer lacks ${missing.join(', ')} of the documented example: ${body.slice(0, 300)}`;
  const code = (example as Record<string, any>)['result']?.['code'];
  if (code !== undefined && answer['result']?.['code'] !== code) return `answered ${answer['result']?.['code']}, the example shows ${code}`;
  return undefined;
}

describe('/openapi.json covers every route, and its examples are answered as documented', () => {
  let t: TestApp;
  let admin: FastifyInstance;
  let document: OpenApiDocument;
  let merchantCaller: Caller;
  let adminCaller: Caller;

  before(async () => {
    t = await startTestApp(await testDatabases()[0]!.open(), { env: { ADMIN_PORT: '0', METRICS_ENABLED: 'true' } });
    admin = await buildAdminApp(t.app);
    await admin.ready();
    document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument;
    // The admin examples change their entity's settings (3-D Secure always …): an entity of their own.
    const [merchant, operated] = [await t.createMerchant(), await t.createMerchant('Operated')];
    merchantCaller = { entityId: merchant.entityId, merchantToken: merchant.accessToken, adminToken: TEST_ADMIN_TOKEN };
    adminCaller = { entityId: operated.entityId, merchantToken: operated.accessToken, adminToken: TEST_ADMIN_TOKEN };
  });
  after(async () => {
    await admin?.close();
    await t?.close();
    await t?.storage.close();
  });

  it('every registered route is documented or listed as undocumented on purpose, and only registered ones are', () => {
    const registered = new Set([...registeredRoutes(t.app), ...registeredRoutes(admin)]);
    const documented = new Set(documentedOperations(document).map(key));
    const deliberate = new Set(UNDOCUMENTED_ROUTES.map((entry) => entry.route));
    assert.ok(registered.size > 60, `found ${registered.size} routes`);
    assert.deepEqual([...registered].filter((route) => !documented.has(route) && !deliberate.has(route) && !underUndocumentedPrefix(route)), [], 'registered but neither documented nor listed');
    assert.deepEqual([...documented].filter((route) => !registered.has(route)), [], 'documented but not registered');
    assert.deepEqual([...deliberate].filter((route) => !registered.has(route)), [], 'listed as undocumented but not registered');
    assert.deepEqual([...deliberate].filter((route) => documented.has(route)), [], 'both documented and listed as undocumented');
    assert.deepEqual([...documented].filter(underUndocumentedPrefix), [], 'documented under a tree that is not an API');
  });

  it('every operation has an example request (each parameter, each body) and an example answer', () => {
    const lacking: string[] = [];
    for (const operation of documentedOperations(document)) {
      const parameters = (operation.operation['parameters'] ?? []) as Record<string, unknown>[];
      if (parameters.some((parameter) => parameter['in'] === 'path' && !parameter['example'])) lacking.push(`${key(operation)}: a path parameter without an example`);
      const body = operation.operation['requestBody']?.['content'] as Record<string, { example?: unknown }> | undefined;
      if (body && Object.values(body).some((media) => media.example === undefined)) lacking.push(`${key(operation)}: a body without an example`);
      if (!documentedStatuses(operation.operation).some((status) => exampleAnswer(operation.operation, status) !== undefined)) lacking.push(`${key(operation)}: no example answer`);
    }
    assert.deepEqual(lacking, []);
  });

  it("every operation's example request gets a documented status and the documented answer's shape", async () => {
    const adminRoutes = new Set(registeredRoutes(admin));
    const wrong: string[] = [];
    for (const operation of documentedOperations(document)) {
      const onAdmin = adminRoutes.has(key(operation));
      const response = await (onAdmin ? admin : t.app).inject(exampleRequest(operation, onAdmin ? adminCaller : merchantCaller));
      const problem = mismatch(operation, response.statusCode, response.body);
      if (problem) wrong.push(`${key(operation)}: ${problem}`);
    }
    assert.deepEqual(wrong, []);
  });
});
