import type { Visibility } from '../../domain/access/actor.js';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import type { Queryable } from '../../storage/port.js';
import { listPendingQueue, type QueuedPending } from '../../storage/repositories/console/pending-queue.js';
import { invalidField } from './console-action.js';
import { visibleEntityIds } from './search-payments.js';

/** The most rows the queue shows, oldest first: the oldest are the ones to look at. */
export const PENDING_QUEUE_ROWS = 200;

/** The ages the filter offers, in minutes (any value in the range is accepted in the address). */
export const PENDING_AGES_MINUTES = [5, 60, 24 * 60, 7 * 24 * 60] as const;
const AGE_MINUTES_MAX = 366 * 24 * 60;

export interface PendingFilter {
  readonly merchantId: string | undefined;
  readonly connectorId: string | undefined;
  readonly olderThanMinutes: number | undefined;
}

const text = (query: Readonly<Record<string, unknown>>, name: string) => (typeof query[name] === 'string' ? String(query[name]).trim() : '');

/** The queue's query string, checked: a wrong value is named (the page answers 400 with it). */
export function parsePendingFilter(query: Readonly<Record<string, unknown>>, visibility: Visibility): PendingFilter {
  const merchant = text(query, 'merchant');
  if (merchant !== '' && visibility.kind !== 'all') throw invalidField('merchant', merchant, 'only operators choose a merchant: you see your own');
  if (merchant !== '' && !ENTITY_ID_PATTERN.test(merchant)) throw invalidField('merchant', merchant, 'must be a merchant id (32 hex)');
  const connector = text(query, 'connector');
  if (connector !== '' && !/^[A-Za-z0-9._-]{1,64}$/.test(connector)) throw invalidField('connector', connector, 'must be a connector id like simulator');
  const age = text(query, 'olderThan');
  const minutes = age === '' ? undefined : Number(age);
  if (minutes !== undefined && (!/^\d{1,6}$/.test(age) || minutes > AGE_MINUTES_MAX)) throw invalidField('olderThan', age, `must be a number of minutes from 0 to ${AGE_MINUTES_MAX}`);
  return { merchantId: merchant || undefined, connectorId: connector || undefined, olderThanMinutes: minutes };
}

/**
 * The pending payments the person may see (an operator every merchant's), oldest first, with
 * what each waits on and its next status check. Resolving one by hand is the payment page's
 * action (payments.resolve-pending), which the queue links to.
 */
export async function pendingQueue(deps: { readonly storage: Queryable; readonly clock: { now(): Date } }, visibility: Visibility, filter: PendingFilter): Promise<QueuedPending[]> {
  const entityIds = await visibleEntityIds(deps.storage, visibility);
  const createdBefore = filter.olderThanMinutes === undefined ? undefined : new Date(deps.clock.now().getTime() - filter.olderThanMinutes * 60_000);
  return listPendingQueue(deps.storage, { entityIds, merchantId: filter.merchantId, connectorId: filter.connectorId, createdBefore, limit: PENDING_QUEUE_ROWS });
}
