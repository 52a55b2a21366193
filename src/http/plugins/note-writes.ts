import type { FastifyInstance, FastifyRequest } from 'fastify';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Read-your-writes with a read replica (storage/replica/replica-reads.ts): a request that may have
 * written (any method but GET/HEAD) notes its entity, and the channel's merchant, whose console
 * and merchant-level credentials read the channel's payments. Noted before the answer is sent, so
 * the client's next request always finds it. Registered only when a replica is in play.
 */
export function registerWriteNotes(app: FastifyInstance): void {
  const { reads, payments } = app.gateway;
  if (!reads.replicated) return;
  app.addHook('onSend', async (request: FastifyRequest) => {
    if (READS.has(request.method)) return;
    const entityId = request.entityId;
    if (entityId !== undefined) {
      reads.noteWrite(entityId);
      const merchantId = await payments.entityNames.merchantOf(entityId).catch(() => null);
      if (merchantId !== null) reads.noteWrite(merchantId);
    }
    const consoleMerchant = request.consoleUser?.merchantId;
    if (consoleMerchant) reads.noteWrite(consoleMerchant);
  });
}
