import { newTransactionState, type TransactionState } from '../../../src/domain/transaction.js';
import { DEFAULT_LIFECYCLE_POLICY, type LifecyclePolicy } from '../../../src/domain/lifecycle/policy.js';
import type { AmountRequest } from '../../../src/domain/lifecycle/rules.js';

export const ENTITY = '8a8294174b7ecb28014b9699220015ca';
export const OTHER_ENTITY = '8a8294174b7ecb28014b9699220015cb';
export const CREATED_AT = new Date('2026-11-22T10:00:00Z');

/** `minutes` after the parent was created. */
export function minutesLater(minutes: number): Date {
  return new Date(CREATED_AT.getTime() + minutes * 60_000);
}

export function parentOf(overrides: Partial<TransactionState> = {}): TransactionState {
  return {
    ...newTransactionState({
      id: '0123456789abcdef0123456789abcdef',
      entityId: ENTITY,
      paymentType: 'PA',
      status: 'success',
      amountMinor: 10_000n,
      currency: 'EUR',
      createdAt: CREATED_AT,
      connectorId: 'simulator',
      resultCode: '000.100.110',
    }),
    ...overrides,
  };
}

export function amountRequest(overrides: Partial<AmountRequest> = {}): AmountRequest {
  return { entityId: ENTITY, amountMinor: 2_500n, currency: 'EUR', final: false, ...overrides };
}

export function policyOf(overrides: Partial<LifecyclePolicy> = {}): LifecyclePolicy {
  return { ...DEFAULT_LIFECYCLE_POLICY, ...overrides };
}
