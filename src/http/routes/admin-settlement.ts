import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isSettlementDay } from '../../domain/settlement/days.js';
import { settleDayDepsOf } from '../../jobs/settle-day.js';
import { addSftpKey } from '../../operations/settlement/add-sftp-key.js';
import { listSftpKeys } from '../../operations/settlement/list-sftp-keys.js';
import { removeSftpKey } from '../../operations/settlement/remove-sftp-key.js';
import { runSettlementDay, SettlementDayNotEnded } from '../../operations/settlement/run-settlement-day.js';
import { setPushTarget } from '../../operations/settlement/set-push-target.js';
import { setSettlementFees } from '../../operations/settlement/set-settlement-fees.js';
import { GatewayError } from '../../results/gateway-error.js';
import { adminField } from '../admin-fields.js';
import { sendWithEnvelope } from '../reply.js';
import { recordCompletedChange, withAudit, withVaultInTransaction } from '../../operations/audit/audited.js';
import { settlementSettingChange } from '../../operations/audit/admin-changes.js';
import { adminActor } from '../admin-actor.js';

const admin = { config: { auth: 'admin' as const } };
const OK = '000.000.100';

type EntityParams = { Params: { entityId: string } };
const field = (request: FastifyRequest, name: string, required: boolean) => adminField(request.body, name, required);

function invalidDay(day: string, message: string): GatewayError {
  return new GatewayError('200.300.404', { parameterErrors: [{ name: 'date', value: day.slice(0, 32), message }] });
}

/**
 * The operator's settlement API (ADMIN_TOKEN): a settlement day run by hand, the SFTP keys `npm run
 * sftp` checks logins against, a merchant's push target and (test system) its simulated fees. The
 * command line uses it while a gateway holds the embedded database.
 */
export function registerSettlementAdminRoutes(app: FastifyInstance): void {
  const payments = app.gateway.payments;
  const targets = payments.webhookTargets;
  app.get<EntityParams>('/admin/entities/:entityId/sftp-keys', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await listSftpKeys(payments, request.params.entityId), OK),
  );
  app.post<EntityParams>('/admin/entities/:entityId/sftp-keys', admin, async (request, reply) => {
    const { entityId } = request.params;
    const key = field(request, 'key', true)!;
    const added = await withAudit(payments, adminActor(request), (scoped) => addSftpKey(scoped, entityId, key), settlementSettingChange('settlement.sftp-key', entityId));
    return sendWithEnvelope(request, reply, 201, added, OK);
  });
  app.delete<{ Params: { entityId: string; keyId: string } }>('/admin/entities/:entityId/sftp-keys/:keyId', admin, async (request, reply) => {
    const { entityId, keyId } = request.params;
    const removed = await withAudit(payments, adminActor(request), (scoped) => removeSftpKey(scoped, entityId, keyId), settlementSettingChange('settlement.sftp-key.remove', entityId));
    return sendWithEnvelope(request, reply, 200, removed, OK);
  });
  app.put<EntityParams>('/admin/entities/:entityId/settlement-push-target', admin, async (request, reply) => {
    const input = { merchantId: request.params.entityId, url: field(request, 'url', true)!, password: field(request, 'password', true)! };
    const change = settlementSettingChange('settlement.push-target', input.merchantId);
    return sendWithEnvelope(request, reply, 200, await withAudit(payments, adminActor(request), (scoped) => setPushTarget({ ...withVaultInTransaction(scoped), targets }, input), change), OK);
  });
  app.put<EntityParams>('/admin/entities/:entityId/settlement-fees', admin, async (request, reply) => {
    const input = { merchantId: request.params.entityId, fixed: field(request, 'fixed', true)!, rateBasisPoints: field(request, 'rate-bp', true)!, currency: field(request, 'currency', false) };
    const change = settlementSettingChange('settlement.fees', input.merchantId);
    return sendWithEnvelope(request, reply, 200, await withAudit(payments, adminActor(request), (scoped) => setSettlementFees(scoped, input), change), OK);
  });
  app.post<{ Params: { day: string } }>('/admin/settlement/days/:day/run', admin, async (request, reply) => {
    const day = request.params.day;
    if (!isSettlementDay(day)) throw invalidDay(day, 'must be a day as YYYY-MM-DD');
    const rewrite = field(request, 'rewrite-files', false);
    if (rewrite !== undefined && rewrite !== 'true' && rewrite !== 'false') throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'rewrite-files', value: rewrite.slice(0, 8), message: 'must be true or false' }] });
    // The same deps as the gateway's daily run: its connectors, vault, files folder and push.
    const run = settleDayDepsOf(app.gateway.config.settlement, payments);
    try {
      const result = await runSettlementDay(run.operations, run.sources(), run.filesDir, day, run.push, { rewriteFiles: rewrite === 'true' });
      // A run takes as long as its files: recorded once done rather than in one long transaction.
      await recordCompletedChange(payments, adminActor(request), { action: 'settlement.run', target: { kind: 'settlement-day', id: day }, entityId: null, after: { rewriteFiles: rewrite === 'true', records: result.ingest.records, files: result.files.length } });
      return sendWithEnvelope(request, reply, 200, result, OK);
    } catch (error) {
      if (error instanceof SettlementDayNotEnded) throw invalidDay(day, error.message);
      throw error;
    }
  });
}
