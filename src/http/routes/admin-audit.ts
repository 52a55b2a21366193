import type { FastifyInstance } from 'fastify';
import { auditVerdictOutput } from '../../operations/audit/audit-verdict-output.js';
import { verifyAuditChain } from '../../operations/audit/verify-audit-chain.js';
import { sendWithEnvelope } from '../reply.js';

const admin = { config: { auth: 'admin' as const } };

/** GET /admin/audit/verify: the audit chain recomputed (`gateway audit verify` while a gateway holds the embedded database). */
export function registerAuditAdminRoutes(app: FastifyInstance): void {
  app.get('/admin/audit/verify', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, auditVerdictOutput(await verifyAuditChain(app.gateway.storage)), '000.000.100'),
  );
}
