import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mayPerform } from '../../domain/access/permissions.js';
import { merchantInScope } from '../../operations/developers/developer-scope.js';
import { createCredential, findVisibleCredential, listCredentials, revokeCredential, setCredentialLegacyAuth } from '../../operations/developers/credentials.js';
import { listMerchants } from '../../storage/repositories/developer-entities.js';
import { CredentialCreatedPage, CredentialsPage, RevokeCredentialPage } from '../pages/developers/credentials-pages.js';
import { developerActorOf, fieldOf, frameOf, sendRefusal, sendSecretPage } from '../pages/developers/developer-request.js';
import { sendPage } from '../render.js';
import '../route-config.js';

const LIST = '/console/developers/credentials';

/** Back to the list, keeping an operator's merchant. */
function listHref(request: FastifyRequest, done?: string): string {
  const params = new URLSearchParams();
  const merchant = request.consoleUser!.merchantId === null ? fieldOf(request.body ?? request.query, 'merchant') : '';
  if (merchant) params.set('merchant', merchant);
  if (done) params.set('done', done);
  const query = params.toString();
  return query ? `${LIST}?${query}` : LIST;
}

async function showList(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const deps = request.server.gateway;
  const { visibility } = developerActorOf(request);
  const merchantId = await merchantInScope(deps.storage, visibility, fieldOf(request.query, 'merchant'));
  const merchants = visibility.kind === 'all' ? await listMerchants(deps.storage) : undefined;
  const overview = merchantId ? await listCredentials(deps, visibility, merchantId) : undefined;
  const done = fieldOf(request.query, 'done') || undefined;
  return sendPage(reply, <CredentialsPage frame={frameOf(request, LIST)} merchants={merchants} merchantId={merchantId} overview={overview} done={done} />);
}

/**
 * API credentials (issue 31, developers' self-service): the merchant's and its channels' access
 * tokens with their last use; create (shown once), revoke (asked first), the OPPWA fields' switch.
 */
export function registerDeveloperCredentials(app: FastifyInstance): void {
  const back = { href: LIST, label: 'Back to the credentials' };
  app.get(LIST, { config: { console: 'credentials.view' } }, async (request, reply) => {
    try {
      return await showList(request, reply);
    } catch (error) {
      return sendRefusal(request, reply, error, back);
    }
  });
  app.post(LIST, { config: { console: 'credentials.manage' } }, async (request, reply) => {
    try {
      const created = await createCredential(request.server.gateway, developerActorOf(request), fieldOf(request.body, 'entity'));
      const user = request.consoleUser!;
      const merchantId = user.merchantId === null ? fieldOf(request.body, 'merchant') || undefined : undefined;
      return sendSecretPage(reply, <CredentialCreatedPage frame={frameOf(request, LIST)} created={created} backHref={listHref(request)} mayEnableLegacy={mayPerform(user.role, 'credentials.legacy-auth')} merchantId={merchantId} />);
    } catch (error) {
      return sendRefusal(request, reply, error, back);
    }
  });
  app.get<{ Params: { tokenId: string } }>(`${LIST}/:tokenId/revoke`, { config: { console: 'credentials.manage' } }, async (request, reply) => {
    try {
      const found = await findVisibleCredential(request.server.gateway, developerActorOf(request).visibility, request.params.tokenId);
      const merchantId = request.consoleUser!.merchantId === null ? found.merchantId : undefined;
      return sendPage(reply, <RevokeCredentialPage frame={frameOf(request, LIST)} tokenId={found.tokenId} merchantId={merchantId} />);
    } catch (error) {
      return sendRefusal(request, reply, error, back);
    }
  });
  app.post<{ Params: { tokenId: string } }>(`${LIST}/:tokenId/revoke`, { config: { console: 'credentials.manage' } }, async (request, reply) => {
    try {
      await revokeCredential(request.server.gateway, developerActorOf(request), request.params.tokenId);
      request.server.gateway.principals.forgetToken(request.params.tokenId);
      return reply.redirect(listHref(request, 'revoked'), 303);
    } catch (error) {
      return sendRefusal(request, reply, error, back);
    }
  });
  app.post(`${LIST}/legacy-auth`, { config: { console: 'credentials.legacy-auth' } }, async (request, reply) => {
    try {
      const entityId = fieldOf(request.body, 'entity');
      const enabled = fieldOf(request.body, 'enabled') === 'true';
      await setCredentialLegacyAuth(request.server.gateway, developerActorOf(request), entityId, enabled);
      request.server.gateway.principals.forgetEntity(entityId);
      return reply.redirect(listHref(request, enabled ? 'legacy-on' : 'legacy-off'), 303);
    } catch (error) {
      return sendRefusal(request, reply, error, back);
    }
  });
}
