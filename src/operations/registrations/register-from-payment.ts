import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import type { NormalizedOutcome } from '../../connectors/connector.js';
import { resultOf } from '../../http/envelope.js';
import type { Queryable } from '../../storage/port.js';
import { insertRegistration } from '../../storage/repositories/registrations.js';
import type { PaymentDeps } from '../deps.js';
import type { ResolvedPaymentMethod } from '../payments/payment-method.js';
import { enqueueNotification } from '../webhooks/enqueue-notification.js';
import { registrableAccount } from './account-data.js';
import { bankExtrasOf } from './bank-extras.js';
import { registrationBody, sealAccount, storedRegistration } from './registration-record.js';

export interface PaymentRegistrationInput {
  readonly entityId: string;
  readonly request: PaymentRequest;
  readonly method: ResolvedPaymentMethod;
  /** An INITIAL standing instruction: the registration keeps the payment's scheme reference. */
  readonly startsSeries: boolean;
}

export interface PreparedRegistration {
  readonly registrationId: string;
  /** Stores the registration with the payment's outcome; answers its id, or nothing after a decline. */
  storeWithOutcome(tx: Queryable, outcome: NormalizedOutcome, transactionId: string): Promise<string | undefined>;
}

/**
 * createRegistration=true: the account is split and sealed before the connector is asked (so no
 * clear number waits in memory for a slow acquirer longer than the request itself), and stored
 * in the transaction that records the payment's outcome. A declined payment registers nothing;
 * one whose outcome is unknown leaves a pending registration that payments refuse (100.150.201).
 */
export async function prepareRegistrationFromPayment(deps: PaymentDeps, input: PaymentRegistrationInput): Promise<PreparedRegistration> {
  const { vault } = deps;
  const account = registrableAccount(input.method, bankExtrasOf(input.request));
  const registrationId = deps.ids.id();
  const sealedAccount = await sealAccount(vault, registrationId, account);
  return {
    registrationId,
    async storeWithOutcome(tx, outcome, transactionId) {
      if (outcome.kind === 'declined') return undefined;
      const status = outcome.kind === 'success' ? 'active' : 'pending';
      const schemeReference = input.startsSeries && outcome.kind === 'success' ? outcome.schemeTransactionId : undefined;
      const view = { body: registrationBody(registrationId, account), result: resultOf(outcome.code) };
      const at = deps.clock.now();
      await insertRegistration(tx, storedRegistration({
        id: registrationId,
        entityId: input.entityId,
        status,
        account,
        sealedAccount,
        view,
        at,
        sourceTransactionId: transactionId,
        initialSchemeReference: schemeReference,
        initialTransactionId: schemeReference ? transactionId : undefined,
      }));
      await enqueueNotification(tx, { entityId: input.entityId, type: 'REGISTRATION', action: 'CREATED', payload: { ...view.body, result: view.result } }, deps);
      return registrationId;
    },
  };
}
