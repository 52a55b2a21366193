import { recordChange } from '../audit/record-change.js';
import { findFamilyRootId, listFamily, merchantOfEntity } from '../../storage/repositories/console/payment-family.js';
import { findDeliveryOfFamily } from '../../storage/repositories/console/payment-events.js';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { resendDelivery, type ResendOutcome } from '../webhooks/resend-delivery.js';
import type { WebhookDeps } from '../webhooks/ports.js';
import type { ConsoleActor } from './console-action.js';
import { findVisibleTransaction, paymentNotFound } from './load-payment-detail.js';

export interface ConsoleResendInput extends ConsoleActor {
  /** The payment whose page the request came from. */
  readonly paymentId: string;
  readonly deliveryId: string;
}

/**
 * Sends a payment's notification again, now, through the admin API's operation; only a delivery
 * of a notification about this payment's family is found, so nobody resends another merchant's.
 * The audit entry is written with the attempt's record.
 */
export async function resendFromConsole(deps: WebhookDeps, input: ConsoleResendInput): Promise<ResendOutcome> {
  const payment = await findVisibleTransaction(deps.storage, input.visibility, input.paymentId);
  if (!payment || !ENTITY_ID_PATTERN.test(input.deliveryId)) throw paymentNotFound();
  const rootId = (await findFamilyRootId(deps.storage, payment.id)) ?? payment.id;
  const ids = (await listFamily(deps.storage, rootId)).map((m) => m.transaction.id);
  const delivery = await findDeliveryOfFamily(deps.storage, input.deliveryId, ids);
  if (!delivery) throw paymentNotFound();
  const merchantId = (await merchantOfEntity(deps.storage, payment.entityId)) ?? payment.entityId;
  return resendDelivery(deps, input.deliveryId, async (tx, attempt) => {
    await recordChange(tx, deps.clock, {
      actor: input.actor, action: 'notifications.resend', target: { kind: 'delivery', id: input.deliveryId }, merchantId,
      after: { transactionId: delivery.transactionId, httpStatus: attempt.httpStatus, error: attempt.error, acknowledged: attempt.acknowledged },
    });
  });
}
