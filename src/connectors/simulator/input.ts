import type {
  PaymentConnectorRequest,
  PaymentMethodData,
  ReferencingConnectorRequest,
  SchemeReferenceStore,
  StandingInstructionData,
} from '../connector.js';
import type { InitialPaymentType, ReferencingPaymentType } from '../../domain/transaction.js';
import { decryptWalletToken, type WalletTokenFailure } from './wallet-token.js';

export type SimulatedOperation = InitialPaymentType | ReferencingPaymentType;

/**
 * The facts of a request the simulator's table looks at, flattened so each row is a one-line
 * predicate. Built once per call; secrets stay inside this object and never reach an outcome.
 */
export interface SimulatorInput {
  readonly operation: SimulatedOperation;
  readonly amountMinor: bigint;
  readonly method: PaymentMethodData['kind'] | null;
  /** The card number behind a card, token account, decrypted wallet or wallet token. */
  readonly pan: string | null;
  readonly expiry: { readonly month: number; readonly year: number } | null;
  readonly cvv: string | null;
  readonly postcode: string | null;
  readonly iban: string | null;
  readonly virtualAccountId: string | null;
  /** walletToken only: whether the token could be decrypted. */
  readonly walletToken: 'valid' | WalletTokenFailure | null;
  /** A merchant-initiated payment naming an initialTransactionId: did this simulator issue it? */
  readonly mitReference: 'issued' | 'not-issued' | null;
  /** Referencing operations: was the parent processed by this connector? */
  readonly parentReference: 'own' | 'foreign' | null;
  readonly now: Date;
}

/** Scheme transaction ids the simulators hand out: "SIM" and 15 digits. */
export const SIMULATED_SCHEME_ID = /^SIM[0-9]{15}$/;

const NO_METHOD_FACTS = {
  method: null,
  pan: null,
  expiry: null,
  cvv: null,
  iban: null,
  virtualAccountId: null,
  walletToken: null,
} as const;

type MethodFacts = Pick<SimulatorInput, 'method' | 'pan' | 'expiry' | 'cvv' | 'iban' | 'virtualAccountId' | 'walletToken'>;

export async function paymentInput(
  operation: InitialPaymentType,
  request: PaymentConnectorRequest,
  now: Date,
  schemeReferences: SchemeReferenceStore | undefined,
): Promise<SimulatorInput> {
  return {
    operation,
    amountMinor: request.amountMinor,
    ...methodFacts(request.method),
    postcode: request.billing?.postcode ?? null,
    mitReference: await mitReference(request.standingInstruction, schemeReferences),
    parentReference: null,
    now,
  };
}

export function referencingInput(
  operation: ReferencingPaymentType,
  request: ReferencingConnectorRequest,
  now: Date,
  ownReferencePrefix: string,
): SimulatorInput {
  const parentId = request.parent.connectorReferences.ConnectorTxID1 ?? '';
  return {
    operation,
    amountMinor: request.amountMinor,
    ...NO_METHOD_FACTS,
    postcode: null,
    mitReference: null,
    parentReference: parentId.startsWith(`${ownReferencePrefix}-`) ? 'own' : 'foreign',
    now,
  };
}

function methodFacts(method: PaymentMethodData): MethodFacts {
  switch (method.kind) {
    case 'card':
    case 'walletDecrypted':
      return cardFacts(method.kind, method.card.number, method.card.expiryMonth, method.card.expiryYear, method.card.cvv);
    case 'tokenAccount':
      return cardFacts(method.kind, method.token.number, method.token.expiryMonth, method.token.expiryYear, undefined);
    case 'walletToken':
      return walletTokenFacts(method);
    case 'bankAccount':
      return { ...NO_METHOD_FACTS, method: method.kind, iban: method.bankAccount.iban?.replace(/\s/g, '').toUpperCase() ?? null };
    case 'virtualAccount':
      return { ...NO_METHOD_FACTS, method: method.kind, virtualAccountId: method.accountId };
    case 'asynchronous':
      return { ...NO_METHOD_FACTS, method: method.kind };
  }
}

function cardFacts(
  method: PaymentMethodData['kind'],
  pan: string,
  expiryMonth: string | undefined,
  expiryYear: string | undefined,
  cvv: string | undefined,
): MethodFacts {
  const expiry = expiryMonth && expiryYear ? { month: Number(expiryMonth), year: Number(expiryYear) } : null;
  return { ...NO_METHOD_FACTS, method, pan, expiry, cvv: cvv ?? null };
}

function walletTokenFacts(method: Extract<PaymentMethodData, { kind: 'walletToken' }>): MethodFacts {
  const decrypted = decryptWalletToken(method.wallet, method.paymentToken);
  if (!decrypted.ok) return { ...NO_METHOD_FACTS, method: method.kind, walletToken: decrypted.reason };
  const { number, expiryMonth, expiryYear } = decrypted.card;
  return { ...cardFacts(method.kind, number, expiryMonth, expiryYear, undefined), walletToken: 'valid' };
}

/**
 * Only a MIT that names an initialTransactionId is checked. The id must look like a simulated
 * scheme id and, when the gateway passes its store, must have been issued before.
 */
async function mitReference(
  instruction: StandingInstructionData | undefined,
  store: SchemeReferenceStore | undefined,
): Promise<SimulatorInput['mitReference']> {
  const initialId = instruction?.initialTransactionId;
  if (instruction?.source !== 'MIT' || !initialId) return null;
  if (!SIMULATED_SCHEME_ID.test(initialId)) return 'not-issued';
  if (store && !(await store.wasIssued(initialId))) return 'not-issued';
  return 'issued';
}

/** True when the card's last valid month lies before the month of `now` (UTC). */
export function isExpired(expiry: SimulatorInput['expiry'], now: Date): boolean {
  if (!expiry) return false;
  const currentMonths = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
  return expiry.year * 12 + expiry.month < currentMonths;
}
