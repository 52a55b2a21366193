import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import type { RotationReport } from '../../domain/vault/index.js';
import { listOperatorEntities } from '../../operations/operator/entities.js';
import { createRouteAsOperator, disableRouteAsOperator, rotateRouteCredentialsAsOperator } from '../../operations/operator/routes.js';
import { rotateVaultKeyAsOperator } from '../../operations/operator/vault.js';
import { vaultStatus } from '../../operations/registrations/vault-maintenance.js';
import { countSealedValuesByDataKey } from '../../storage/repositories/sealed-values.js';
import { listRouteViews } from '../../operations/routing/change-route.js';
import { invalidRouteParameter } from '../../operations/routing/route-input.js';
import type { RouteView } from '../../operations/routing/route-view.js';
import { GatewayError } from '../../results/gateway-error.js';
import { consoleActor } from '../console-actor.js';
import { fieldOf, frameOf, sendRefusal } from '../pages/developers/developer-request.js';
import { RotateCredentialsPage, ROUTES, RoutesPage, type ConnectorChoice } from '../pages/operator/routes-pages.js';
import { DATA_KEYS_SHOWN, VAULT, VaultPage } from '../pages/operator/vault-page.js';
import { sendPage } from '../render.js';
import { fieldRefusal, formErrorsOf } from './operator-entities.js';
import '../route-config.js';

type RouteParams = { Params: { routeId: string } };

function connectorsOf(request: FastifyRequest): ConnectorChoice[] {
  return request.server.gateway.payments.connectors.registry.connectors.map((c) => ({ connectorId: c.id, liveCapable: c.liveCapable }));
}

function listOf(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}

/** The name and secret rows as credentials[name] = secret; a secret without its name is refused, never echoed. */
function credentialsOf(body: unknown): Record<string, string> {
  const names = listOf(body, 'credentialName');
  const values = listOf(body, 'credentialValue');
  const credentials: Record<string, string> = {};
  for (let i = 0; i < Math.max(names.length, values.length); i++) {
    const name = (names[i] ?? '').trim();
    const value = values[i] ?? '';
    if (name === '' && value === '') continue;
    if (name === '') throw invalidRouteParameter('credentials', '', `secret ${i + 1} needs its name`);
    if (Object.hasOwn(credentials, name)) throw invalidRouteParameter(`credentials[${name}]`, '', 'is named twice');
    credentials[name] = value;
  }
  return credentials;
}

const credentialField = (name: string) => (name.startsWith('credentials') ? 'credentials' : name);

async function showRoutes(request: FastifyRequest, reply: FastifyReply, extra: { errors?: ReturnType<typeof formErrorsOf>; status?: number } = {}): Promise<FastifyReply> {
  const { gateway } = request.server;
  const [routes, entities] = [await listRouteViews(gateway.payments), await listOperatorEntities(gateway.storage)];
  const done = fieldOf(request.query, 'done') || undefined;
  return sendPage(reply, <RoutesPage frame={frameOf(request, ROUTES)} routes={routes} connectors={connectorsOf(request)} entities={entities} errors={extra.errors} done={done} />, extra.status);
}

async function addRoute(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const body = request.body;
  const typed = { system: fieldOf(body, 'system'), entity: fieldOf(body, 'entity'), brand: fieldOf(body, 'brand'), currency: fieldOf(body, 'currency'), connector: fieldOf(body, 'connector'), credentialNames: listOf(body, 'credentialName').join('\n') };
  try {
    const input = { system: typed.system || undefined, entityId: typed.entity || undefined, brand: typed.brand || undefined, currency: typed.currency || undefined, connectorId: typed.connector, credentials: credentialsOf(body) };
    await createRouteAsOperator(request.server.gateway.payments, consoleActor(request), input);
    return reply.redirect(`${ROUTES}?done=added`, 303);
  } catch (error) {
    const refused = fieldRefusal(error, true);
    if (!refused) throw error;
    return showRoutes(request, reply, { errors: formErrorsOf(refused, typed, credentialField), status: refused.httpStatus });
  }
}

async function findRouteView(request: FastifyRequest<RouteParams>): Promise<RouteView> {
  const route = ENTITY_ID_PATTERN.test(request.params.routeId) ? (await listRouteViews(request.server.gateway.payments)).find((r) => r.routeId === request.params.routeId) : undefined;
  if (!route) throw new GatewayError('200.300.404', { httpStatus: 404, parameterErrors: [{ name: 'routeId', value: '', message: 'no route has this id' }] });
  return route;
}

async function rotateCredentials(request: FastifyRequest<RouteParams>, reply: FastifyReply): Promise<FastifyReply> {
  const route = await findRouteView(request);
  try {
    await rotateRouteCredentialsAsOperator(request.server.gateway.payments, consoleActor(request), route.routeId, credentialsOf(request.body));
    return reply.redirect(`${ROUTES}?done=rotated`, 303);
  } catch (error) {
    const refused = fieldRefusal(error);
    if (!refused) throw error;
    return sendPage(reply, <RotateCredentialsPage frame={frameOf(request, ROUTES)} route={route} error={refused.parameterErrors![0]!.message} />, refused.httpStatus);
  }
}

function guarded<R extends FastifyRequest<any>>(back: { href: string; label: string }, handler: (request: R, reply: FastifyReply) => Promise<FastifyReply>) {
  return async (request: R, reply: FastifyReply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      return sendRefusal(request, reply, error, back);
    }
  };
}

/** The rotation's counts, carried by the redirect after it (a reload shows them again, never rotates again). */
function reportOf(request: FastifyRequest, currentMasterKeyId: string): RotationReport | undefined {
  const rewrapped = fieldOf(request.query, 'rewrapped');
  const skipped = fieldOf(request.query, 'skipped') || '0';
  if (!/^\d{1,9}$/.test(rewrapped) || !/^\d{1,9}$/.test(skipped)) return undefined;
  return { currentMasterKeyId, rewrapped: Number(rewrapped), skipped: Number(skipped) };
}

function registerVault(app: FastifyInstance): void {
  app.get(VAULT, { config: { console: 'vault.view' } }, async (request, reply) => {
    const { storage } = request.server.gateway;
    const [status, uses] = await Promise.all([vaultStatus(storage, request.server.gateway.payments.vault), countSealedValuesByDataKey(storage, DATA_KEYS_SHOWN)]);
    return sendPage(reply, <VaultPage frame={frameOf(request, VAULT)} status={status} uses={uses} report={reportOf(request, status.currentMasterKeyId)} />);
  });
  app.post(`${VAULT}/rotate`, { config: { console: 'vault.rotate' } }, async (request, reply) => {
    const { gateway } = request.server;
    const report = await rotateVaultKeyAsOperator({ storage: gateway.storage, clock: gateway.clock, vault: gateway.payments.vault }, consoleActor(request));
    return reply.redirect(`${VAULT}?rewrapped=${report.rewrapped}&skipped=${report.skipped}`, 303);
  });
}

/**
 * Connectors and routes, and the vault's keys (issue 32, operators only): the admin API's
 * operations with the same audit entries. A route's secrets are typed into fields that never
 * carry a value back and are sealed by the vault; no page shows them again.
 */
export function registerOperatorRoutes(app: FastifyInstance): void {
  const manage = { config: { console: 'routes.manage' as const } };
  const back = { href: ROUTES, label: 'Back to the routes' };
  app.get(ROUTES, { config: { console: 'routes.view' } }, (request, reply) => showRoutes(request, reply));
  app.post(ROUTES, manage, guarded(back, addRoute));
  app.get<RouteParams>(`${ROUTES}/:routeId/credentials`, manage, guarded(back, async (request, reply) => sendPage(reply, <RotateCredentialsPage frame={frameOf(request, ROUTES)} route={await findRouteView(request)} />)));
  app.post<RouteParams>(`${ROUTES}/:routeId/credentials`, manage, guarded(back, rotateCredentials));
  app.post<RouteParams>(`${ROUTES}/:routeId/disable`, manage, guarded(back, async (request, reply) => {
    await disableRouteAsOperator(request.server.gateway.payments, consoleActor(request), request.params.routeId);
    return reply.redirect(`${ROUTES}?done=disabled`, 303);
  }));
  registerVault(app);
}
