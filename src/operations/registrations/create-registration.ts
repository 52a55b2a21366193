import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import { resultOf } from '../../http/envelope.js';
import { GatewayError } from '../../results/gateway-error.js';
import { insertRegistration } from '../../storage/repositories/registrations.js';
import { resolvePaymentMethod } from '../payments/payment-method.js';
import { enqueueNotification } from '../webhooks/enqueue-notification.js';
import { registrableAccount } from './account-data.js';
import { bankExtrasOf } from './bank-extras.js';
import type { RegistrationDeps } from './deps.js';
import { migratedInitialOf } from './recurring-migration.js';
import { registrationBody, registrationSuccessCode, sealAccount, storedRegistration, type RegistrationView } from './registration-record.js';

export interface CreateRegistrationInput {
  readonly entityId: string;
  readonly request: PaymentRequest;
  /** The request's structures as the response echoes them (account data already summarised). */
  readonly echo: Readonly<Record<string, unknown>>;
  /** The registration's id when the caller chose it first (a checkout claims its attempt by it); else a new one. */
  readonly registrationId?: string | undefined;
}

const ACCOUNT_STRUCTURES = ['card', 'bankAccount', 'tokenAccount', 'virtualAccount', 'walletA', 'walletB', 'walletC'] as const;

function hasAccountData(request: PaymentRequest): boolean {
  return ACCOUNT_STRUCTURES.some((name) => request[name] !== undefined);
}

/**
 * POST /v1/registrations: stores card, bank account, token account or virtual account data.
 * The numbers are sealed by the vault before the row is written; a CVV sent along is dropped
 * here, unused and unstored. The registration and its REGISTRATION/CREATED notification are
 * written in one transaction.
 */
export async function createRegistration(deps: RegistrationDeps, input: CreateRegistrationInput): Promise<RegistrationView> {
  const { request, entityId } = input;
  if (!hasAccountData(request)) throw new GatewayError('100.150.100');
  const account = registrableAccount(resolvePaymentMethod(request), bankExtrasOf(request));
  const migrated = migratedInitialOf(request, account);
  const id = input.registrationId ?? deps.ids.id();
  const sealedAccount = await sealAccount(deps.vault, id, account);
  const { card: _card, bankAccount: _bank, tokenAccount: _token, virtualAccount: _virtual, ...echo } = input.echo;
  const view: RegistrationView = {
    body: registrationBody(id, account, echo),
    result: resultOf(registrationSuccessCode(deps.system, request.testMode)),
  };
  const at = deps.clock.now();
  await deps.storage.transaction(async (tx) => {
    await insertRegistration(tx, storedRegistration({
      id,
      entityId,
      status: 'active',
      account,
      sealedAccount,
      view,
      at,
      initialSchemeReference: migrated?.schemeReference,
      recurringMigration: migrated?.record,
    }));
    await enqueueNotification(tx, { entityId, type: 'REGISTRATION', action: 'CREATED', payload: { ...view.body, result: view.result } }, deps);
  });
  return view;
}
