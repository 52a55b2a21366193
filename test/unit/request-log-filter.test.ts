/** The request log's filter form: one row per rule, each broken field named with its own message. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestLogQuery, type RequestLogQuery } from '../../src/domain/request-log-filter.js';

const EMPTY: RequestLogQuery = { entity: '', method: '', path: '', status: '', resultCode: '', from: '', to: '' };

describe('the request log filter', () => {
  const accepted: [Partial<RequestLogQuery>, object][] = [
    [{}, {}],
    [{ entity: 'a'.repeat(32) }, { entityId: 'a'.repeat(32) }],
    [{ method: 'POST' }, { method: 'POST' }],
    [{ path: ' /v1/payments ' }, { pathContains: '/v1/payments' }],
    [{ status: '404' }, { status: 404 }],
    [{ status: '4xx' }, { statusClass: 4 }],
    [{ resultCode: '800.100.151' }, { resultCode: '800.100.151' }],
    [{ from: '2026-11-27' }, { from: new Date('2026-11-27T00:00:00Z') }],
    [{ to: '2026-11-27' }, { to: new Date('2026-11-28T00:00:00Z') }],
    [{ to: '2026-11-27T14:30' }, { to: new Date('2026-11-27T14:30:00Z') }],
  ];
  for (const [query, filter] of accepted) {
    it(`accepts ${JSON.stringify(query)}`, () => {
      assert.deepEqual(parseRequestLogQuery({ ...EMPTY, ...query }), { ok: true, filter });
    });
  }
  const refused: [Partial<RequestLogQuery>, string][] = [
    [{ entity: 'shop' }, 'entity'],
    [{ method: 'PATCH' }, 'method'],
    [{ path: 'x'.repeat(201) }, 'path'],
    [{ status: '4x' }, 'status'],
    [{ status: '600' }, 'status'],
    [{ resultCode: '800.100' }, 'resultCode'],
    [{ from: 'yesterday' }, 'from'],
    [{ from: '2026-02-30' }, 'from'],
    [{ from: '2026-11-28', to: '2026-11-27' }, 'to'],
  ];
  for (const [query, field] of refused) {
    it(`refuses ${JSON.stringify(query).slice(0, 60)} naming ${field}`, () => {
      const parsed = parseRequestLogQuery({ ...EMPTY, ...query });
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.deepEqual(Object.keys(parsed.errors), [field]);
    });
  }
});
