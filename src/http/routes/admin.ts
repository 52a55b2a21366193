import type { FastifyInstance, FastifyRequest } from 'fastify';
import { adminField } from '../admin-fields.js';
import { createAccessToken } from '../../operations/admin/create-access-token.js';
import { createEntity } from '../../operations/admin/create-entity.js';
import { listEntities } from '../../operations/admin/list-entities.js';
import { revokeAccessToken } from '../../operations/admin/revoke-access-token.js';
import { setEntityLegacyAuth } from '../../operations/admin/set-legacy-auth.js';
import { GatewayError } from '../../results/gateway-error.js';
import { setUnknownParameters } from '../../operations/admin/set-unknown-parameters.js';
import { setThreeDSecure } from '../../operations/admin/set-three-d-secure.js';
import { sendWithEnvelope } from '../reply.js';

const admin = { config: { auth: 'admin' as const } };

const field = (request: FastifyRequest, name: string, required: boolean) => adminField(request.body, name, required);

function onOrOff(value: string): boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'enabled', value: value.slice(0, 64), message: 'must be true or false' }] });
}

/**
 * The operator's API (guarded by ADMIN_TOKEN). The command line uses it while a gateway runs,
 * which is how it reaches an embedded database that only one process may open.
 */
export function registerAdminRoutes(app: FastifyInstance): void {
  const deps = app.gateway;
  app.post('/admin/entities', admin, async (request, reply) => {
    const created = await createEntity(deps, { name: field(request, 'name', true)!, merchantId: field(request, 'merchant', false), kind: field(request, 'kind', false) as 'psp' | 'division' | undefined, parentId: field(request, 'parent', false) });
    return sendWithEnvelope(request, reply, 201, created, '000.000.100');
  });
  app.get('/admin/entities', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, { entities: await listEntities(deps) }, '000.000.100'),
  );
  app.post<{ Params: { entityId: string } }>('/admin/entities/:entityId/legacy-auth', admin, async (request, reply) => {
    const setting = await setEntityLegacyAuth(deps, request.params.entityId, onOrOff(field(request, 'enabled', true)!));
    deps.principals.forgetEntity(setting.entityId);
    return sendWithEnvelope(request, reply, 200, setting, '000.000.100');
  });
  app.post('/admin/tokens', admin, async (request, reply) => {
    const created = await createAccessToken(deps, field(request, 'entity', true)!);
    return sendWithEnvelope(request, reply, 201, created, '000.000.100');
  });
  app.put<{ Params: { entityId: string } }>('/admin/entities/:entityId/unknown-parameters', admin, async (request, reply) => {
    const setting = await setUnknownParameters(deps, request.params.entityId, field(request, 'mode', true)!);
    deps.principals.forgetEntitySettings(setting.entityId);
    return sendWithEnvelope(request, reply, 200, setting, '000.000.100');
  });
  app.put<{ Params: { entityId: string } }>('/admin/entities/:entityId/three-d-secure', admin, async (request, reply) => {
    const settings = deps.payments.threeDSecureSettings;
    const setting = await setThreeDSecure(deps, request.params.entityId, field(request, 'requirement', true)!, (id) => settings.forget(id));
    return sendWithEnvelope(request, reply, 200, setting, '000.000.100');
  });
  app.delete<{ Params: { tokenId: string } }>('/admin/tokens/:tokenId', admin, async (request, reply) => {
    const revoked = await revokeAccessToken(deps, request.params.tokenId);
    deps.principals.forgetToken(request.params.tokenId);
    return sendWithEnvelope(request, reply, 200, revoked, '000.000.100');
  });
}
