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
import { setThrottling } from '../../operations/admin/set-throttling.js';
import { sendWithEnvelope } from '../reply.js';
import { withAudit } from '../../operations/audit/audited.js';
import { entitySettingChange } from '../../operations/audit/entity-snapshot.js';
import { adminActor } from '../admin-actor.js';
import { entityCreated, tokenCreated, tokenRevoked } from '../../operations/audit/admin-changes.js';


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
    const input = { name: field(request, 'name', true)!, merchantId: field(request, 'merchant', false), kind: field(request, 'kind', false) as 'psp' | 'division' | undefined, parentId: field(request, 'parent', false) };
    const created = await withAudit(deps, adminActor(request), (scoped) => createEntity(scoped, input), entityCreated(input));
    return sendWithEnvelope(request, reply, 201, created, '000.000.100');
  });
  app.get('/admin/entities', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, { entities: await listEntities(deps) }, '000.000.100'),
  );
  app.post<{ Params: { entityId: string } }>('/admin/entities/:entityId/legacy-auth', admin, async (request, reply) => {
    const { entityId } = request.params;
    const enabled = onOrOff(field(request, 'enabled', true)!);
    const setting = await withAudit(deps, adminActor(request), (scoped) => setEntityLegacyAuth(scoped, entityId, enabled), entitySettingChange('entities.legacy-auth', entityId));
    deps.principals.forgetEntity(setting.entityId);
    return sendWithEnvelope(request, reply, 200, setting, '000.000.100');
  });
  app.post('/admin/tokens', admin, async (request, reply) => {
    const entityId = field(request, 'entity', true)!;
    const created = await withAudit(deps, adminActor(request), (scoped) => createAccessToken(scoped, entityId), tokenCreated());
    return sendWithEnvelope(request, reply, 201, created, '000.000.100');
  });
  app.put<{ Params: { entityId: string } }>('/admin/entities/:entityId/unknown-parameters', admin, async (request, reply) => {
    const { entityId } = request.params;
    const mode = field(request, 'mode', true)!;
    const setting = await withAudit(deps, adminActor(request), (scoped) => setUnknownParameters(scoped, entityId, mode), entitySettingChange('entities.unknown-parameters', entityId));
    deps.principals.forgetEntitySettings(setting.entityId);
    return sendWithEnvelope(request, reply, 200, setting, '000.000.100');
  });
  app.put<{ Params: { entityId: string } }>('/admin/entities/:entityId/throttling', admin, async (request, reply) => {
    const { entityId } = request.params;
    const maxRequests = field(request, 'maxRequests', true)!;
    const setting = await withAudit(deps, adminActor(request), (scoped) => setThrottling(scoped, entityId, maxRequests), entitySettingChange('entities.throttling', entityId));
    deps.principals.forgetEntitySettings(setting.entityId);
    return sendWithEnvelope(request, reply, 200, setting, '000.000.100');
  });
  app.put<{ Params: { entityId: string } }>('/admin/entities/:entityId/three-d-secure', admin, async (request, reply) => {
    const settings = deps.payments.threeDSecureSettings;
    const { entityId } = request.params;
    const requirement = field(request, 'requirement', true)!;
    const setting = await withAudit(deps, adminActor(request), (scoped) => setThreeDSecure(scoped, entityId, requirement, (id) => settings.forget(id)), entitySettingChange('entities.three-d-secure', entityId));
    return sendWithEnvelope(request, reply, 200, setting, '000.000.100');
  });
  app.delete<{ Params: { tokenId: string } }>('/admin/tokens/:tokenId', admin, async (request, reply) => {
    const { tokenId } = request.params;
    const revoked = await withAudit(deps, adminActor(request), (scoped) => revokeAccessToken(scoped, tokenId), tokenRevoked(tokenId));
    deps.principals.forgetToken(request.params.tokenId);
    return sendWithEnvelope(request, reply, 200, revoked, '000.000.100');
  });
}
