import { createHash } from 'node:crypto';
import type { Storage } from '../../src/storage/port.js';
import { insertTransactions, type StoredTransaction } from '../../src/storage/repositories/transactions.js';

/** Ids for the search tests: 32 hex digits made from a readable name. */
export const hexId = (name: string): string => createHash('md5').update(name).digest('hex');

export interface SeedPayment {
  readonly name: string;
  readonly entityId: string;
  readonly createdAt: Date;
  readonly amountMinor?: bigint;
  readonly currency?: string;
  readonly paymentType?: StoredTransaction['paymentType'];
  readonly status?: StoredTransaction['status'];
  readonly resultCode?: string;
  readonly brand?: string | null;
  readonly connectorId?: string;
  readonly bin?: string;
  readonly last4?: string;
  readonly holder?: string;
  readonly email?: string;
  readonly ip?: string;
  readonly merchantTransactionId?: string | null;
  readonly shortId?: string;
}

/** A stored transaction as the payment path writes it (through insertTransactions, terms and all). */
export function storedPayment(p: SeedPayment): StoredTransaction {
  const id = hexId(p.name);
  const card = p.bin === undefined ? undefined : { bin: p.bin, last4Digits: p.last4 ?? '0000', ...(p.holder ? { holder: p.holder } : {}) };
  const customer = p.email || p.ip ? { ...(p.email ? { email: p.email } : {}), ...(p.ip ? { ip: p.ip } : {}) } : undefined;
  return {
    id, entityId: p.entityId, parentId: null, paymentType: p.paymentType ?? 'DB', status: p.status ?? 'success',
    resultCode: p.resultCode ?? '000.100.110', amountMinor: p.amountMinor ?? 1000n, currency: p.currency ?? 'EUR',
    capturedMinor: 0n, refundedMinor: 0n, captureCount: 0, maxCaptures: null, captureClosed: false, refundClosed: false,
    reversedAt: null, isFinal: false, paymentBrand: p.brand === undefined ? 'VISA' : p.brand, paymentMethod: 'CC',
    merchantTransactionId: p.merchantTransactionId === undefined ? `mtx-${p.name}` : p.merchantTransactionId,
    shortId: p.shortId ?? '1111.2222.3333', connectorId: p.connectorId ?? 'simulator', connectorReferences: {},
    schemeTransactionId: null, response: { id, ...(card ? { card } : {}), ...(customer ? { customer } : {}) },
    createdAt: p.createdAt, updatedAt: p.createdAt, routeId: null, idempotencyClaimId: null,
  };
}

export async function insertEntity(storage: Storage, id: string, kind: 'merchant' | 'channel', merchantId: string | null): Promise<void> {
  await storage.query(`INSERT INTO entities (id, kind, name, merchant_id, created_at) VALUES ($1, $2, $3, $4, now())`, [id, kind, `${kind} ${id.slice(0, 6)}`, merchantId]);
}

export async function insertPayments(storage: Storage, payments: readonly SeedPayment[]): Promise<void> {
  await insertTransactions(storage, payments.map(storedPayment));
}
