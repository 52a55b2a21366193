import type { Visibility } from '../../domain/access/actor.js';
import { listApiRequests, type ApiRequestFilter, type StoredApiRequest } from '../../storage/repositories/api-request-log.js';
import type { OperationDeps } from '../deps.js';

export const REQUEST_LOG_PAGE_SIZE = 50;

export interface ApiRequestPage {
  readonly requests: readonly StoredApiRequest[];
  /** The cursor of the next (older) page; undefined on the last page. */
  readonly next: string | undefined;
}

/** A page's cursor: the last row's time and id, opaque to the person. */
export function requestLogCursor(request: Pick<StoredApiRequest, 'at' | 'id'>): string {
  return `${request.at.getTime()}.${request.id}`;
}

export function parseRequestLogCursor(cursor: string | undefined): { at: Date; id: bigint } | undefined {
  const match = /^(\d{1,15})\.(\d{1,19})$/.exec(cursor ?? '');
  return match ? { at: new Date(Number(match[1])), id: BigInt(match[2]!) } : undefined;
}

/**
 * The request log as a person may see it: operators every entity's requests, a merchant's people
 * their merchant's and its channels' only, whatever the filter asks for.
 */
export async function listVisibleApiRequests(
  deps: Pick<OperationDeps, 'storage'>,
  visibility: Visibility,
  filter: Omit<ApiRequestFilter, 'merchantId'>,
  cursor: string | undefined,
): Promise<ApiRequestPage> {
  const scoped: ApiRequestFilter = visibility.kind === 'merchant' ? { ...filter, merchantId: visibility.merchantId } : filter;
  const rows = await listApiRequests(deps.storage, scoped, parseRequestLogCursor(cursor), REQUEST_LOG_PAGE_SIZE + 1);
  const requests = rows.slice(0, REQUEST_LOG_PAGE_SIZE);
  return { requests, next: rows.length > REQUEST_LOG_PAGE_SIZE ? requestLogCursor(requests.at(-1)!) : undefined };
}
