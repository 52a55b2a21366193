import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { visibilityOf, type Visibility } from '../../domain/access/actor.js';
import { mayPerform } from '../../domain/access/permissions.js';
import { settlementSettingChange } from '../../operations/audit/admin-changes.js';
import { withAudit, withVaultInTransaction } from '../../operations/audit/audited.js';
import { merchantInScope, notVisible } from '../../operations/developers/developer-scope.js';
import { addSftpKey } from '../../operations/settlement/add-sftp-key.js';
import { fileDeliveryOf } from '../../operations/settlement/file-delivery.js';
import { removePushTarget } from '../../operations/settlement/remove-push-target.js';
import { removeSftpKey } from '../../operations/settlement/remove-sftp-key.js';
import { setPushTarget } from '../../operations/settlement/set-push-target.js';
import { listMerchants } from '../../storage/repositories/developer-entities.js';
import type { Queryable } from '../../storage/port.js';
import { consoleActor } from '../console-actor.js';
import { fieldOf, frameOf, sendRefusal } from '../pages/developers/developer-request.js';
import { DeliveryPage, type DeliveryFormState } from '../pages/settlement/delivery-page.js';
import { DELIVERY_PATH } from '../pages/settlement/settlement-filter.js';
import { sendPage } from '../render.js';
import { formErrorsOf } from './risk-lists.js';
import '../route-config.js';

const BACK = { href: DELIVERY_PATH, label: 'Back to file delivery' };

/**
 * The merchant a request is about: a merchant's person always their own (naming another answers
 * 404, as an unknown id), an operator the one they picked (undefined until they pick one).
 */
async function merchantOfRequest(db: Queryable, visibility: Visibility, picked: string): Promise<string | undefined> {
  if (visibility.kind === 'merchant' && picked !== '' && picked !== visibility.merchantId) throw notVisible('merchant', picked);
  return merchantInScope(db, visibility, picked);
}

async function showDelivery(request: FastifyRequest, reply: FastifyReply, state?: DeliveryFormState): Promise<FastifyReply> {
  const gateway = request.server.gateway;
  const visibility = visibilityOf(request.consoleUser!);
  const merchantId = await merchantOfRequest(gateway.storage, visibility, fieldOf(state ? request.body : request.query, 'merchant'));
  const merchants = visibility.kind === 'all' ? await listMerchants(gateway.storage) : undefined;
  const delivery = merchantId ? await fileDeliveryOf(gateway, merchantId) : undefined;
  const done = state ? undefined : fieldOf(request.query, 'done') || undefined;
  const mayManage = mayPerform(request.consoleUser!.role, 'settlement.delivery.manage');
  // no-store: the page is where a password is typed; no copy of it belongs in a cache.
  reply.header('cache-control', 'no-store');
  return sendPage(reply, <DeliveryPage frame={frameOf(request, DELIVERY_PATH)} merchants={merchants} merchantId={merchantId} delivery={delivery} mayManage={mayManage} state={state} done={done} />, state ? 400 : 200);
}

/** The URL as typed, shown again without a password put in it by mistake (as set-push-target echoes it). */
function shownUrl(request: FastifyRequest): string {
  return fieldOf(request.body, 'url').replace(/\/\/[^@/]*@/, (userInfo) => (userInfo.includes(':') ? `//${userInfo.slice(2).split(':')[0]}@` : userInfo)).slice(0, 500);
}

/**
 * A change: the merchant checked against what the person may see, then the one operation, audited
 * in its transaction; a refusal of the form's content shows the page again with the field marked.
 */
function deliveryChange(form: DeliveryFormState['form'], run: (request: FastifyRequest, merchantId: string) => Promise<string>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const merchantId = await merchantOfRequest(request.server.gateway.storage, visibilityOf(request.consoleUser!), fieldOf(request.body, 'merchant'));
      if (!merchantId) throw notVisible('merchant', '');
      const done = await run(request, merchantId);
      const params = new URLSearchParams({ ...(fieldOf(request.body, 'merchant') ? { merchant: merchantId } : {}), done });
      return reply.redirect(`${DELIVERY_PATH}?${params}`, 303);
    } catch (error) {
      const errors = formErrorsOf(error);
      if (errors && !('merchant' in errors)) return showDelivery(request, reply, { form, errors, url: form === 'push' ? shownUrl(request) : '' });
      return sendRefusal(request, reply, error, BACK);
    }
  };
}

/**
 * How a merchant receives its reconciliation files (issue 32): its SFTP keys (type and
 * fingerprint; add one, remove one) and its push target (the URL and when it was set; set,
 * replace, remove). The same operations as the admin API and the command line, each audited.
 */
export function registerSettlementDelivery(app: FastifyInstance): void {
  const manage = { config: { console: 'settlement.delivery.manage' as const } };
  app.get(DELIVERY_PATH, { config: { console: 'settlement.delivery.view' } }, async (request, reply) => {
    try {
      return await showDelivery(request, reply);
    } catch (error) {
      return sendRefusal(request, reply, error, BACK);
    }
  });
  app.post(`${DELIVERY_PATH}/keys`, manage, deliveryChange('key', async (request, merchantId) => {
    const payments = request.server.gateway.payments;
    await withAudit(payments, consoleActor(request), (scoped) => addSftpKey(scoped, merchantId, fieldOf(request.body, 'key')), settlementSettingChange('settlement.sftp-key', merchantId));
    return 'key-added';
  }));
  app.post(`${DELIVERY_PATH}/keys/remove`, manage, deliveryChange('key', async (request, merchantId) => {
    const payments = request.server.gateway.payments;
    await withAudit(payments, consoleActor(request), (scoped) => removeSftpKey(scoped, merchantId, fieldOf(request.body, 'keyId')), settlementSettingChange('settlement.sftp-key.remove', merchantId));
    return 'key-removed';
  }));
  app.post(`${DELIVERY_PATH}/push-target`, manage, deliveryChange('push', async (request, merchantId) => {
    const payments = request.server.gateway.payments;
    const input = { merchantId, url: fieldOf(request.body, 'url'), password: fieldOf(request.body, 'password') };
    await withAudit(payments, consoleActor(request), (scoped) => setPushTarget({ ...withVaultInTransaction(scoped), targets: payments.webhookTargets }, input), settlementSettingChange('settlement.push-target', merchantId));
    return 'push-set';
  }));
  app.post(`${DELIVERY_PATH}/push-target/remove`, manage, deliveryChange('push', async (request, merchantId) => {
    await withAudit(request.server.gateway.payments, consoleActor(request), (scoped) => removePushTarget(scoped, merchantId), settlementSettingChange('settlement.push-target.remove', merchantId));
    return 'push-removed';
  }));
}
