/**
 * The audit log's chain: entries appended in the transactions of their changes verify; an edited,
 * removed or cut-off entry is found where it breaks; the table refuses UPDATE and DELETE.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Actor } from '../../../src/domain/access/actor.js';
import { recordChange } from '../../../src/operations/audit/record-change.js';
import { verifyAuditChain } from '../../../src/operations/audit/verify-audit-chain.js';
import { listAuditEntries } from '../../../src/storage/repositories/audit-log.js';
import type { Storage } from '../../../src/storage/port.js';
import { testDatabases } from '../../support/databases.js';
import { ManualClock } from '../../support/test-app.js';

const ADMIN: Actor = { kind: 'admin-api', address: '198.51.100.7' };
const PERSON: Actor = { kind: 'user', userId: 'a'.repeat(32), email: 'clerk@example.com', role: 'finance', merchantId: 'b'.repeat(32), address: '203.0.113.9' };

for (const database of testDatabases()) {
  describe(`the audit chain (${database.name})`, () => {
    let storage: Storage;
    const clock = new ManualClock();
    before(async () => {
      storage = await database.open();
    });
    after(() => storage.close());

    const record = (actor: Actor, id: string, after: unknown) =>
      storage.transaction((tx) => recordChange(tx, clock, { actor, action: 'webhooks.manage', target: { kind: 'webhook', id }, merchantId: 'b'.repeat(32), before: null, after }));

    it('verifies entries appended one after the other, with secrets masked by name', async () => {
      await record(ADMIN, 'w1', { url: 'https://shop.example/hook', secret: 'ABCDEF0123456789' });
      clock.advance(1000);
      await record(PERSON, 'w2', { url: 'https://shop.example/other', amount: 12n, nested: { password: 'x', keep: [1, 'two'] } });
      await Promise.all([record(ADMIN, 'w3', { a: 1 }), record(ADMIN, 'w4', { b: 2 }), record(PERSON, 'w5', { c: 3 })]);
      const verdict = await verifyAuditChain(storage);
      assert.deepEqual(verdict.ok && verdict.entries, 5);
      const [newest, ...rest] = await listAuditEntries(storage, { merchantId: 'b'.repeat(32) }, undefined, 10);
      assert.equal(rest.length, 4);
      assert.equal(newest!.seq, 5n);
      const first = rest.at(-1)!;
      assert.deepEqual(first.after, { url: 'https://shop.example/hook', secret: '[secret]' });
      assert.equal(first.actor, 'admin API token');
      assert.equal(rest.at(-2)!.role, 'finance');
      assert.deepEqual(rest.at(-2)!.after, { url: 'https://shop.example/other', amount: '12', nested: { password: '[secret]', keep: [1, 'two'] } });
    });

    it('refuses to change or remove an entry', async () => {
      await assert.rejects(storage.query("UPDATE audit_log SET actor = 'someone else' WHERE seq = 1"), /append-only/);
      await assert.rejects(storage.query('DELETE FROM audit_log WHERE seq = 1'), /append-only/);
    });

    it('finds an entry edited behind the trigger at the entry it breaks', async () => {
      await storage.transaction(async (tx) => {
        await tx.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
        await tx.query(`UPDATE audit_log SET after = '{"url":"https://attacker.example/"}'::jsonb WHERE seq = 2`);
        await tx.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only');
      });
      const verdict = await verifyAuditChain(storage);
      assert.equal(verdict.ok, false);
      assert.equal(!verdict.ok && verdict.brokenAt, 2n);
      assert.match(!verdict.ok ? verdict.reason : '', /changed after it was written/);
    });

    it('finds an entry removed from the end through the head', async () => {
      await storage.transaction(async (tx) => {
        await tx.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
        await tx.query(`UPDATE audit_log SET after = '{"url":"https://shop.example/other","amount":"12","nested":{"password":"[secret]","keep":[1,"two"]}}'::jsonb WHERE seq = 2`);
        await tx.query('DELETE FROM audit_log WHERE seq = 5');
        await tx.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only');
      });
      const verdict = await verifyAuditChain(storage);
      assert.equal(verdict.ok, false);
      assert.match(!verdict.ok ? verdict.reason : '', /removed from the end/);
    });
  });
}

describe('what an audit entry shows people', () => {
  it('narrows two objects to the keys that changed, and keeps token ids while masking tokens', async () => {
    const { auditValue, changedParts } = await import('../../../src/domain/audit/audit-entry.js');
    assert.deepEqual(changedParts({ a: 1, b: 2, c: null }, { a: 1, b: 3, c: null }), { before: { b: 2 }, after: { b: 3 } });
    assert.deepEqual(changedParts(null, { a: 1 }), { before: null, after: { a: 1 } });
    assert.deepEqual(auditValue({ tokenId: 'abc', accessToken: 'secret-bearer', webhookSecret: 'x' }), { tokenId: 'abc', accessToken: '[secret]', webhookSecret: '[secret]' });
  });
});
