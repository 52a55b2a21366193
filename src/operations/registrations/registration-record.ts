import { brandResultOf } from '../../domain/responses/brand-result.js';
import type { Vault } from '../../domain/vault/index.js';
import type { ResultBody } from '../../http/envelope.js';
import type { RegistrationStatus, StoredRegistration } from '../../storage/repositories/registrations.js';
import type { RegistrableAccount } from './account-data.js';

/** A registration as the API shows it: the body and its result. */
export interface RegistrationView {
  readonly body: Record<string, unknown>;
  readonly result: ResultBody;
}

/** The associated data of a registration's sealed account: it opens only under this id. */
export function recordContext(registrationId: string): string {
  return `registration:${registrationId}`;
}

export interface SealedAccount {
  readonly sealed: Awaited<ReturnType<Vault['seal']>> | null;
  readonly fingerprint: string;
}

/** Seals the account numbers and computes the fingerprint; call outside database transactions. */
export async function sealAccount(vault: Vault, registrationId: string, account: RegistrableAccount): Promise<SealedAccount> {
  const sealed = Object.keys(account.secret).length > 0 ? await vault.seal(recordContext(registrationId), account.secret) : null;
  return { sealed, fingerprint: await vault.fingerprint(account.fingerprint.kind, account.fingerprint.value) };
}

/** What a response shows of a stored account: the fields the public interface returns. */
export function accountDisplay(method: StoredRegistration['method'], clear: Readonly<Record<string, string>>): Record<string, unknown> {
  const { mandateId, mandateDateOfSignature, numberType: _numberType, ...shown } = clear;
  if (method !== 'bankAccount' || mandateId === undefined) return { ...shown };
  return { ...shown, mandate: { id: mandateId, ...(mandateDateOfSignature ? { dateOfSignature: mandateDateOfSignature } : {}) } };
}

/** The response body of a registration: id, brand, the account summary, then the echoed request. */
export function registrationBody(
  id: string,
  account: Pick<RegistrableAccount, 'method' | 'brand' | 'clear'>,
  echo: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = { id, paymentBrand: account.brand, [account.method]: accountDisplay(account.method, account.clear) };
  for (const [name, value] of Object.entries(echo)) if (!(name in body)) body[name] = value;
  const brandResult = account.method === 'card' ? brandResultOf(account.clear['bin']) : undefined;
  if (brandResult) body['brandResult'] = brandResult;
  return body;
}

export interface NewRegistration {
  readonly id: string;
  readonly entityId: string;
  readonly status: Exclude<RegistrationStatus, 'deregistered'>;
  readonly account: RegistrableAccount;
  readonly sealedAccount: SealedAccount;
  readonly view: RegistrationView;
  readonly at: Date;
  readonly initialSchemeReference?: string | undefined;
  readonly initialTransactionId?: string | undefined;
  readonly sourceTransactionId?: string | undefined;
  readonly recurringMigration?: Readonly<Record<string, string>> | undefined;
}

export function storedRegistration(r: NewRegistration): StoredRegistration {
  return {
    id: r.id,
    entityId: r.entityId,
    status: r.status,
    method: r.account.method,
    paymentBrand: r.account.brand,
    account: r.account.clear,
    sealed: r.sealedAccount.sealed,
    fingerprint: r.sealedAccount.fingerprint,
    initialSchemeReference: r.initialSchemeReference ?? null,
    initialTransactionId: r.initialTransactionId ?? null,
    sourceTransactionId: r.sourceTransactionId ?? null,
    recurringMigration: r.recurringMigration ?? null,
    response: { ...r.view.body, result: r.view.result },
    deregistrationId: null,
    createdAt: r.at,
    updatedAt: r.at,
    deregisteredAt: null,
  };
}

export function viewOfStoredRegistration(stored: StoredRegistration): RegistrationView {
  const { result, ...body } = stored.response;
  return { body, result: result as ResultBody };
}

/**
 * Storing data moves no money, so a registration answers with the system's plain success:
 * 000.100.110 on the test system (simulator, testMode INTERNAL or absent), 000.100.112 with
 * testMode EXTERNAL, 000.000.000 on the live system, as compatibility.md lists them.
 */
export function registrationSuccessCode(system: 'test' | 'live', testMode: 'INTERNAL' | 'EXTERNAL' | undefined): string {
  if (system === 'live') return '000.000.000';
  return testMode === 'EXTERNAL' ? '000.100.112' : '000.100.110';
}
