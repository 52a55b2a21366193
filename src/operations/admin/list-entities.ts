import { listEntities as listRows } from '../../storage/repositories/entities.js';
import type { OperationDeps } from '../deps.js';

export interface EntitySummary {
  readonly entityId: string;
  readonly kind: 'psp' | 'division' | 'merchant' | 'channel';
  /** A merchant's division or PSP, a division's PSP. */
  readonly parentId?: string;
  readonly name: string;
  readonly merchantId: string | null;
  readonly createdAt: string;
  /** Whether the entity accepts the authentication.* fields in place of a Bearer header. */
  readonly legacyAuth: boolean;
}

export async function listEntities(deps: Pick<OperationDeps, 'storage'>): Promise<EntitySummary[]> {
  const rows = await listRows(deps.storage);
  return rows.map((e) => ({ entityId: e.id, kind: e.kind, name: e.name, merchantId: e.merchantId, ...(e.parentId ? { parentId: e.parentId } : {}), createdAt: e.createdAt.toISOString(), legacyAuth: e.legacyAuth !== false }));
}
