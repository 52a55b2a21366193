import type { NormalizedOutcome } from '../../connectors/connector.js';
import type { Queryable } from '../../storage/port.js';
import { recordInitialSchemeReference, settlePendingRegistrationOf } from '../../storage/repositories/registrations.js';
import type { StoredTransaction } from '../../storage/repositories/transactions.js';

/**
 * What a payment that ended after its first answer (a redirect's return, a status answer, an
 * operator) owes the registrations: the one it created (createRegistration=true) becomes usable
 * or goes; an INITIAL CIT's scheme reference goes to the registration it started, for the MITs
 * that follow. In the caller's transaction, with the outcome.
 */
export async function settleRegistrations(tx: Queryable, transaction: StoredTransaction, outcome: Pick<NormalizedOutcome, 'kind' | 'schemeTransactionId'>, at: Date): Promise<void> {
  const succeeded = outcome.kind === 'success';
  await settlePendingRegistrationOf(tx, transaction.id, succeeded, at);
  const response = transaction.response as { registrationId?: string; standingInstruction?: { mode?: string } };
  if (succeeded && outcome.schemeTransactionId && response.registrationId && response.standingInstruction?.mode === 'INITIAL') {
    await recordInitialSchemeReference(tx, response.registrationId, outcome.schemeTransactionId, transaction.id, at);
  }
}

/**
 * Whether a payment's later outcome has registrations to settle: one it created
 * (createRegistration=true, pending with it), or one whose series it started. Either names its
 * registration in the stored answer (create-payment.ts puts the id there), so a payment without
 * one skips settleRegistrations' statements.
 */
export function owesRegistrations(transaction: Pick<StoredTransaction, 'response'>): boolean {
  return typeof (transaction.response as { registrationId?: unknown }).registrationId === 'string';
}
