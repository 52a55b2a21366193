import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CATALOGUE } from '../../../src/catalogue/catalogue.js';
import { formatAccepts } from '../../../src/catalogue/formats.js';
import { validateRequest } from '../../../src/catalogue/engine.js';
import { ENDPOINTS, type Endpoint, type ParameterRow } from '../../../src/catalogue/types.js';
import { CONTEXT, fullRequest, fullRequestRows, sampleName } from './fixtures.js';

/**
 * One test per catalogue row, generated from the row's own samples: on every endpoint that admits
 * the row, the endpoint's full request (every parameter at its valid sample, so this row's valid
 * sample among them) is accepted, and the same request with only this row's value replaced by its
 * invalid sample is rejected with the row's result code, naming this parameter and no other.
 */

const FULL_REQUESTS = new Map(ENDPOINTS.map((endpoint) => [endpoint, fullRequest(endpoint)]));
const FULL_ROWS = new Map(ENDPOINTS.map((endpoint) => [endpoint, new Set(fullRequestRows(endpoint))]));
const ACCEPTED = new Map(ENDPOINTS.map((endpoint) => [endpoint, validateRequest(endpoint, FULL_REQUESTS.get(endpoint)!, CONTEXT)]));

function endpointsOf(row: ParameterRow): Endpoint[] {
  return ENDPOINTS.filter((endpoint) => FULL_ROWS.get(endpoint)!.has(row));
}

test('every endpoint accepts its full request', () => {
  for (const [endpoint, result] of ACCEPTED) assert.ok(result.ok, `${endpoint}: ${JSON.stringify(!result.ok && result.issues)}`);
});

for (const row of CATALOGUE) {
  test(`row ${row.name} (${Object.keys(row.use).join(', ')})`, () => {
    assert.ok(formatAccepts(row.format, row.validSample), `valid sample ${row.validSample} breaks the format`);
    assert.ok(!formatAccepts(row.format, row.invalidSample), `invalid sample ${row.invalidSample} passes the format`);
    const endpoints = endpointsOf(row);
    assert.ok(endpoints.length > 0 || row.name === 'merchantTransactionId', 'the row is tested on no endpoint');
    const name = sampleName(row);
    for (const endpoint of endpoints) {
      const body = FULL_REQUESTS.get(endpoint)!;
      assert.equal(body[name], row.validSample);
      assert.ok(ACCEPTED.get(endpoint)!.ok, `${endpoint} rejects its full request`);
      const rejected = validateRequest(endpoint, { ...body, [name]: row.invalidSample }, CONTEXT);
      assert.ok(!rejected.ok, `${endpoint} accepts the invalid sample ${row.invalidSample}`);
      assert.deepEqual(
        rejected.issues.map((issue) => [issue.name, issue.code]),
        [[name, row.code]],
        `${endpoint} with ${name}=${row.invalidSample}`,
      );
      assert.equal(rejected.code, row.code);
    }
  });
}

test('the query merchantTransactionId, left out of the full query, is tested on its own', () => {
  const base = { entityId: FULL_REQUESTS.get('query')!['entityId']! };
  assert.ok(validateRequest('query', { ...base, merchantTransactionId: 'order-17' }, CONTEXT).ok);
  const rejected = validateRequest('query', { ...base, merchantTransactionId: 'x'.repeat(256) }, CONTEXT);
  assert.ok(!rejected.ok && rejected.parameterErrors[0]!.name === 'merchantTransactionId');
});
