import { recordCompletedChange, withAudit, withVaultInTransaction } from '../../operations/audit/audited.js';
import { adminActor } from '../admin-actor.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { listPending, resolveManually } from '../../operations/pending/resolve-manually.js';
import { createRoute } from '../../operations/routing/create-route.js';
import { disableRouteById, listRouteViews, rotateRouteCredentials } from '../../operations/routing/change-route.js';
import type { RoutingDeps } from '../../operations/routing/deps.js';
import { routeChange } from '../../operations/audit/admin-changes.js';
import type { Queryable } from '../../storage/port.js';
import { invalidRouteParameter } from '../../operations/routing/route-input.js';
import { sendWithEnvelope } from '../reply.js';

const admin = { config: { auth: 'admin' as const } };
const OK = '000.000.100';
const CREDENTIAL_FIELD = /^credentials\[(.*)\]$/;

type RouteParams = { Params: { routeId: string } };

/** A single, non-empty form field (or query field on GET). */
function field(source: unknown, name: string, required: boolean): string | undefined {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string' && value !== '') return value;
  if (value === undefined && !required) return undefined;
  throw invalidRouteParameter(name, typeof value === 'string' ? value : '', required ? 'is required' : 'must be sent once');
}

/** credentials[name]=value fields of the form; each name once. */
function credentialsOf(body: unknown): Record<string, unknown> {
  const credentials: Record<string, unknown> = {};
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    const match = CREDENTIAL_FIELD.exec(name);
    if (match) credentials[match[1]!] = value;
  }
  return credentials;
}

function limitOf(request: FastifyRequest): number | undefined {
  const raw = field(request.query, 'limit', false);
  if (raw === undefined) return undefined;
  if (!/^[0-9]{1,4}$/.test(raw)) throw invalidRouteParameter('limit', raw, 'must be a whole number up to 1000');
  return Number(raw);
}

async function entityOfTransaction(db: Queryable, transactionId: string): Promise<string | null> {
  const result = await db.query<{ entity_id: string }>('SELECT entity_id FROM transactions WHERE id = $1', [transactionId]);
  return result.rows[0]?.entity_id.trim() ?? null;
}

/**
 * The operator's routing and pending-resolution API (guarded by ADMIN_TOKEN): routes from an
 * entity, brand and currency to a connector with its credentials (never shown again), the
 * connectors this build has, the transactions still pending, and their resolution by hand.
 */
export function registerRoutingAdminRoutes(app: FastifyInstance): void {
  const { payments } = app.gateway;
  const deps: RoutingDeps = payments;

  app.get('/admin/connectors', admin, async (request, reply) => {
    const connectors = payments.connectors.registry.connectors.map((c) => ({ connectorId: c.id, liveCapable: c.liveCapable, status: c.status !== undefined, policy: payments.connectors.policyFor(c.id) }));
    return sendWithEnvelope(request, reply, 200, { connectors }, OK);
  });
  app.post('/admin/routes', admin, async (request, reply) => {
    const body = request.body;
    const input = {
      system: field(body, 'system', false),
      entityId: field(body, 'entity', false),
      brand: field(body, 'brand', false),
      currency: field(body, 'currency', false),
      connectorId: field(body, 'connector', true)!,
      credentials: credentialsOf(body),
      fallbackRouteId: field(body, 'fallback', false),
    };
    const created = await withAudit(deps, adminActor(request), (scoped) => createRoute(withVaultInTransaction(scoped), input), routeChange('routes.create'));
    return sendWithEnvelope(request, reply, 201, created, OK);
  });
  app.get('/admin/routes', admin, async (request, reply) => sendWithEnvelope(request, reply, 200, { routes: await listRouteViews(deps) }, OK));
  app.post<RouteParams>('/admin/routes/:routeId/credentials', admin, async (request, reply) => {
    const credentials = credentialsOf(request.body);
    const rotated = await withAudit(deps, adminActor(request), (scoped) => rotateRouteCredentials(withVaultInTransaction(scoped), request.params.routeId, credentials), routeChange('routes.rotate-credentials'));
    return sendWithEnvelope(request, reply, 200, rotated, OK);
  });
  app.post<RouteParams>('/admin/routes/:routeId/disable', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await withAudit(deps, adminActor(request), (scoped) => disableRouteById(scoped, request.params.routeId), routeChange('routes.disable')), OK),
  );

  app.get('/admin/pending', admin, async (request, reply) => sendWithEnvelope(request, reply, 200, { pending: await listPending(deps, limitOf(request)) }, OK));
  app.post<{ Params: { transactionId: string } }>('/admin/transactions/:transactionId/resolve', admin, async (request, reply) => {
    const input = { transactionId: request.params.transactionId, outcome: field(request.body, 'outcome', true)!, reason: field(request.body, 'reason', true)! };
    const resolved = await resolveManually(deps, input);
    await recordCompletedChange(deps, adminActor(request), {
      action: 'payments.resolve-pending',
      target: { kind: 'transaction', id: input.transactionId },
      entityId: await entityOfTransaction(deps.storage, input.transactionId),
      before: { status: 'pending' },
      after: { outcome: input.outcome, reason: input.reason, result: resolved },
    });
    return sendWithEnvelope(request, reply, 200, resolved, OK);
  });
}
