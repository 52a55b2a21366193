import type { FastifyInstance } from 'fastify';
import { listSftpKeys } from '../../operations/settlement/list-sftp-keys.js';
import { sendWithEnvelope } from '../reply.js';

const admin = { config: { auth: 'admin' as const } };
const OK = '000.000.100';

/** The operator's settlement API (ADMIN_TOKEN): the SFTP keys `npm run sftp` checks logins against. */
export function registerSettlementAdminRoutes(app: FastifyInstance): void {
  const payments = app.gateway.payments;
  app.get<{ Params: { entityId: string } }>('/admin/entities/:entityId/sftp-keys', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await listSftpKeys(payments, request.params.entityId), OK),
  );
}
