import type { FastifyInstance, FastifyRequest } from 'fastify';
import { setConnectorDetails } from '../../operations/admin/set-connector-details.js';
import { setMerchantBankAccount } from '../../operations/admin/set-merchant-bank-account.js';
import { GatewayError } from '../../results/gateway-error.js';
import { adminField } from '../admin-fields.js';
import { sendWithEnvelope } from '../reply.js';
import { withAudit } from '../../operations/audit/audited.js';
import { entitySettingChange } from '../../operations/audit/entity-snapshot.js';
import { adminActor } from '../admin-actor.js';

const admin = { config: { auth: 'admin' as const } };
type EntityParams = { Params: { entityId: string } };

function shownOrHidden(request: FastifyRequest): boolean {
  const value = adminField(request.body, 'enabled', true)!;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'enabled', value: value.slice(0, 64), message: 'must be true or false' }] });
}

/**
 * What an entity's payment answers show (docs/api.md, "Payment answers"): the connector's details
 * in resultDetails, and the bank account PREPAYMENT shoppers pay into (merchant.bankAccount.*).
 */
export function registerAdminEntityAnswerRoutes(app: FastifyInstance): void {
  const deps = app.gateway;
  app.put<EntityParams>('/admin/entities/:entityId/connector-details', admin, async (request, reply) => {
    const { entityId } = request.params;
    const shown = shownOrHidden(request);
    const setting = await withAudit(deps, adminActor(request), (scoped) => setConnectorDetails(scoped, entityId, shown), entitySettingChange('entities.connector-details', entityId));
    deps.principals.forgetEntitySettings(setting.entityId);
    return sendWithEnvelope(request, reply, 200, setting, '000.000.100');
  });
  app.put<EntityParams>('/admin/entities/:entityId/bank-account', admin, async (request, reply) => {
    const field = (name: string) => adminField(request.body, name, false);
    const input = { holder: field('holder'), number: field('number'), bic: field('bic'), country: field('country') };
    const { entityId } = request.params;
    const change = entitySettingChange<unknown>('entities.bank-account', entityId);
    return sendWithEnvelope(request, reply, 200, await withAudit(deps, adminActor(request), (scoped) => setMerchantBankAccount(scoped, entityId, input), change), '000.000.100');
  });
  app.delete<EntityParams>('/admin/entities/:entityId/bank-account', admin, async (request, reply) => {
    const { entityId } = request.params;
    const change = entitySettingChange<unknown>('entities.bank-account', entityId);
    return sendWithEnvelope(request, reply, 200, await withAudit(deps, adminActor(request), (scoped) => setMerchantBankAccount(scoped, entityId, null), change), '000.000.100');
  });
}
