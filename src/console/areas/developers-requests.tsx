import type { FastifyInstance } from 'fastify';
import { REQUEST_LOG_FIELDS, parseRequestLogQuery, type RequestLogQuery } from '../../domain/request-log-filter.js';
import { listMerchantEntities } from '../../storage/repositories/developer-entities.js';
import { listVisibleApiRequests } from '../../operations/request-log/list-api-requests.js';
import { notVisible } from '../../operations/developers/developer-scope.js';
import { developerActorOf, fieldOf, frameOf, sendRefusal } from '../pages/developers/developer-request.js';
import { REQUESTS, RequestLogPage } from '../pages/developers/request-log-page.js';
import { sendPage } from '../render.js';
import '../route-config.js';

/**
 * The request log (issue 31): the merchant's recent API requests, filtered, newest first, paged
 * by a keyset cursor. A merchant's person sees their merchant's and its channels' requests only,
 * whatever the filter names (listVisibleApiRequests scopes the query).
 */
export function registerDeveloperRequests(app: FastifyInstance): void {
  app.get(REQUESTS, { config: { console: 'request-log.view' } }, async (request, reply) => {
    const deps = request.server.gateway;
    const { visibility } = developerActorOf(request);
    const query = Object.fromEntries(REQUEST_LOG_FIELDS.map((name) => [name, fieldOf(request.query, name).slice(0, 300)])) as unknown as RequestLogQuery;
    const entities = visibility.kind === 'merchant' ? await listMerchantEntities(deps.storage, visibility.merchantId) : undefined;
    // Another merchant's entity is "not found", as everywhere else for a merchant's person.
    if (entities && query.entity !== '' && !entities.some((entity) => entity.id === query.entity)) {
      return sendRefusal(request, reply, notVisible('entity', query.entity), { href: REQUESTS, label: 'Back to the request log' });
    }
    const parsed = parseRequestLogQuery(query);
    const frame = frameOf(request, REQUESTS);
    if (!parsed.ok) return sendPage(reply, <RequestLogPage frame={frame} query={query} entities={entities} errors={parsed.errors} requests={[]} olderHref={undefined} />, 400);
    const page = await listVisibleApiRequests(deps, visibility, parsed.filter, fieldOf(request.query, 'before') || undefined);
    const older = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== ''));
    if (page.next) older.set('before', page.next);
    const olderHref = page.next ? `${REQUESTS}?${older}` : undefined;
    return sendPage(reply, <RequestLogPage frame={frame} query={query} entities={entities} errors={{}} requests={page.requests} olderHref={olderHref} />);
  });
}
