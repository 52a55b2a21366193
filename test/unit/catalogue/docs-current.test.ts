import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { renderGeneratedFiles } from '../../../src/catalogue/render/generated-files.js';
import { DOCS_CONTENT_SECURITY_POLICY, renderDocsPage } from '../../../src/http/docs/reference-page.js';

/** The committed generated files are what the data renders today; `npm run docs` refreshes them. */

const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));

for (const [path, rendered] of renderGeneratedFiles()) {
  test(`${path} is current (run npm run docs)`, () => {
    const file = join(REPOSITORY, path);
    assert.ok(existsSync(file), `${path} is missing`);
    assert.ok(readFileSync(file, 'utf8') === rendered, `${path} differs from what the catalogue renders; run npm run docs`);
  });
}

test('the OpenAPI document covers the endpoints with form bodies and bearer auth', () => {
  const document = JSON.parse(renderGeneratedFiles().get('docs/openapi.json')!);
  assert.equal(document.openapi, '3.1.0');
  assert.deepEqual(document.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer' });
  for (const path of ['/v1/payments', '/v1/payments/{id}', '/v1/registrations', '/v1/registrations/{id}/payments', '/v1/query', '/v1/resultcodes', '/scheduling/v1/schedules', '/scheduling/v1/schedules/{id}/deschedule', '/v1/checkouts', '/v1/checkouts/{id}/payment',
    '/reports/v1/reconciliations/aggregations', '/reports/v1/reconciliations/aggregations/{id}', '/reports/v2/reconciliations/aggregations/{id}']) {
    assert.ok(document.paths[path], path);
  }
  // Endpoints the catalogue knows but the gateway does not serve yet stay out (ENDPOINT_ROUTES[…].served).
  for (const path of [] as string[]) {
    assert.equal(document.paths[path], undefined, path);
  }
  const payment = document.components.schemas.PaymentRequest;
  assert.deepEqual(payment.required, ['entityId', 'amount', 'currency', 'paymentType']);
  assert.ok(payment.properties['card.number']);
  assert.ok(Object.keys(payment.patternProperties).includes('^cart\\.items\\[(0|[1-9][0-9]*)\\]\\.name$'));
  assert.ok(document.paths['/v1/payments'].post.requestBody.content['application/x-www-form-urlencoded']);
  assert.equal(document.components.schemas['param.amount'].pattern, '^[0-9]{1,10}(\\.[0-9]{2})?$');
});

test('the reference page loads its renderer from the gateway, runs no inline script and escapes what it shows', () => {
  const page = renderDocsPage('/openapi.json?"<x>', 'Gateway <test>');
  assert.ok(page.startsWith('<!doctype html>'));
  // Every script has a src on this origin; no inline script, no style element, nothing from another host.
  assert.deepEqual([...page.matchAll(/<script([^>]*)>/g)].map((match) => /src="\/docs\/assets\/[\w.-]+"/.test(match[1]!)), [true, true]);
  assert.ok(!/<style|src="http|href="http|\son\w+=/i.test(page));
  assert.ok(page.includes('data-openapi-url="/openapi.json?&#34;&#60;x&#62;"'));
  assert.ok(page.includes('Gateway &#60;test&#62; API reference'));
  assert.match(DOCS_CONTENT_SECURITY_POLICY, /script-src 'self'(;|$)/);
  assert.doesNotMatch(DOCS_CONTENT_SECURITY_POLICY, /unsafe-inline|unsafe-eval/);
});
