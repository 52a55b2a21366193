import type { SettlementRecord } from '../../src/connectors/connector.js';
import { randomIds } from '../../src/domain/ids.js';
import { ingestSettlement, type IngestSummary, type SettlementSource } from '../../src/operations/settlement/ingest-settlement.js';
import { settlementSources } from '../../src/operations/settlement/settlement-sources.js';
import { insertWebhook } from '../../src/storage/repositories/webhooks.js';
import type { TestApp } from './test-app.js';

/** Ingests `day` from the app's own connectors (the simulator), as the daily job does. */
export function ingestDay(t: TestApp, day: string, extra: readonly SettlementSource[] = []): Promise<IngestSummary> {
  const sources = [...settlementSources(t.app.gateway.payments.connectors.registry), ...extra];
  return ingestSettlement({ storage: t.storage, clock: t.clock, ids: randomIds }, sources, day);
}

/** A source that delivers exactly these records (a hand-made acquirer file). */
export function fixedSource(connectorId: string, records: readonly SettlementRecord[]): SettlementSource {
  return {
    connectorId,
    async *records() {
      yield* records;
    },
  };
}

/** An active webhook of the entity, so that notifications are written (nobody listening writes none). */
export async function activeWebhook(t: TestApp, entityId: string): Promise<void> {
  const now = t.clock.now();
  await insertWebhook(t.storage, {
    id: randomIds.id(), entityId, url: 'https://hooks.example.com/settlement', secret: 'a'.repeat(64),
    status: 'active', createdAt: now, updatedAt: now, activatedAt: now, notificationTypes: ['PAYMENT', 'REGISTRATION'],
  });
}

/** The PAYMENT notifications written for a transaction. */
export async function notificationsOf(t: TestApp, transactionId: string): Promise<number> {
  const { rows } = await t.storage.query<{ n: number }>(`SELECT count(*)::int AS n FROM notifications WHERE transaction_id = $1 AND type = 'PAYMENT'`, [transactionId]);
  return rows[0]!.n;
}

export const DAY_MS = 86_400_000;
