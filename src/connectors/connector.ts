import type { LifecyclePolicy } from '../domain/lifecycle/policy.js';
import type { InitialPaymentType, PaymentType, ReferencingPaymentType } from '../domain/transaction.js';

/**
 * The connector port: how the gateway asks an acquirer, bank or simulator to move money.
 * Connectors are stateless translators. The gateway decides with the life-cycle rules, stores
 * every transaction, and calls a connector only to learn the outside world's answer.
 * A connector may use the card number and CVV it is given but never logs, stores or echoes them.
 */

export type TestMode = 'INTERNAL' | 'EXTERNAL';
export type GatewaySystem = 'test' | 'live';
export type WalletName = 'walletA' | 'walletB' | 'walletC';

export interface CardDetails {
  readonly number: string;
  readonly expiryMonth: string;
  readonly expiryYear: string;
  readonly cvv?: string;
  readonly holder?: string;
  readonly numberType?: 'PAN' | 'DPAN';
}

export interface BankAccountDetails {
  readonly holder: string;
  readonly iban?: string;
  readonly number?: string;
  readonly bic?: string;
  readonly bankCode?: string;
  readonly country?: string;
  readonly mandateId?: string;
}

export interface TokenAccountDetails {
  readonly number: string;
  readonly type: 'EXTERNAL' | 'NETWORK';
  readonly expiryMonth?: string;
  readonly expiryYear?: string;
  readonly cryptogram?: string;
  readonly dtvc?: string;
}

/** The account a payment draws on or pays into; one variant per account structure of the spec. */
export type PaymentMethodData =
  | { readonly kind: 'card'; readonly card: CardDetails }
  | { readonly kind: 'bankAccount'; readonly bankAccount: BankAccountDetails }
  | { readonly kind: 'virtualAccount'; readonly accountId: string }
  | { readonly kind: 'tokenAccount'; readonly token: TokenAccountDetails }
  /** Wallet data the merchant already decrypted (walletX.source plus card and 3DS fields). */
  | { readonly kind: 'walletDecrypted'; readonly wallet: WalletName; readonly source: 'web' | 'app'; readonly card: CardDetails; readonly eci?: string; readonly verificationId?: string }
  /** walletX.paymentToken as received from the wallet; the connector decrypts it. */
  | { readonly kind: 'walletToken'; readonly wallet: WalletName; readonly paymentToken: string; readonly cardNetwork?: string; readonly cardType?: string }
  /**
   * An asynchronous method (PayPal, Sofort, iDEAL …): the shopper pays on the provider's page.
   * What the request says about the shopper's bank, when the method asks for it.
   */
  | { readonly kind: 'asynchronous'; readonly bank: ShopperBankDetails };

/** The shopper's bank as an asynchronous method names it (not an account the gateway debits). */
export interface ShopperBankDetails {
  readonly country?: string;
  readonly bankName?: string;
  readonly bic?: string;
  readonly iban?: string;
  readonly holder?: string;
}

/**
 * The credentials a connector presents to its acquirer for one route (merchant id, terminal id,
 * keys …), opened from the vault for the call. Never logged, never stored outside the vault.
 */
export type ConnectorCredentials = Readonly<Record<string, string>>;

/** What every connector call carries, whatever the operation. */
export interface ConnectorRequestContext {
  /** Gateway id of the transaction being created by this call. */
  readonly transactionId: string;
  readonly entityId: string;
  /** null when the request had no testMode (INTERNAL on the test system). */
  readonly testMode: TestMode | null;
  readonly system: GatewaySystem;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly brand: string;
  /** The route's credentials; empty for connectors that need none (the simulator). */
  readonly credentials?: ConnectorCredentials | undefined;
}

/**
 * Where a shopper who is sent away (a provider's page, a 3-D Secure ACS) comes back: the
 * gateway's return endpoint of this payment. A connector whose answer is `pending` with a
 * redirect tells its provider to send the shopper to `returnUrl`; the gateway then asks the
 * connector's `complete` with what came back.
 */
export interface ShopperReturn {
  readonly returnUrl: string;
  /** The gateway's public base URL: the simulator serves its provider pages under it. */
  readonly gatewayBaseUrl: string;
  /** The redirect's id (the last segment of returnUrl): the connector may hand it to its provider. */
  readonly reference: string;
  /** The shopper's language, when the request or the browser named one. */
  readonly locale?: string | undefined;
}

/** 3-D Secure data a payment carries to the acquirer: an external server's, or the gateway's own authentication. */
export interface ThreeDSecureData {
  readonly eci?: string;
  readonly verificationId?: string;
  readonly authenticationStatus?: string;
  readonly dsTransactionId?: string;
  readonly acsTransactionId?: string;
  readonly version?: string;
  readonly challengeIndicator?: string;
  readonly exemptionFlag?: string;
}

export interface StandingInstructionData {
  readonly type?: 'UNSCHEDULED' | 'INSTALLMENT' | 'RECURRING';
  readonly mode?: 'INITIAL' | 'REPEATED';
  readonly source?: 'CIT' | 'MIT';
  readonly initialTransactionId?: string;
}

/** PA, DB or CD. */
export interface PaymentConnectorRequest extends ConnectorRequestContext {
  readonly method: PaymentMethodData;
  readonly billing?: { readonly street1?: string; readonly postcode?: string; readonly city?: string; readonly country?: string };
  readonly threeDSecure?: ThreeDSecureData;
  readonly standingInstruction?: StandingInstructionData;
  readonly merchantTransactionId?: string;
  readonly descriptor?: string;
  /** The request's chargebackResultCode: the test system raises a chargeback with it later (docs/settlement.md). */
  readonly chargebackResultCode?: string;
  /** Present when the shopper's browser can be sent away (shopperResultUrl given): asynchronous methods need it. */
  readonly shopperReturn?: ShopperReturn;
}

/** The connector's own references of a transaction (resultDetails.ConnectorTxID1..3). */
export type ConnectorReferences = Readonly<Record<string, string>>;

/** CP, RF or RV. For RV, amountMinor and currency are the parent's. */
export interface ReferencingConnectorRequest extends ConnectorRequestContext {
  /** sequence=FINAL */
  readonly final: boolean;
  readonly parent: {
    readonly transactionId: string;
    readonly paymentType: PaymentType;
    readonly amountMinor: bigint;
    readonly currency: string;
    readonly connectorReferences: ConnectorReferences;
  };
}

export type AvsResponse = 'A' | 'Z' | 'N' | 'U' | 'F';
export type CvvResponse = 'M' | 'N' | 'P' | 'S' | 'U';
export const AVS_RESPONSES: readonly AvsResponse[] = ['A', 'Z', 'N', 'U', 'F'];
export const CVV_RESPONSES: readonly CvvResponse[] = ['M', 'N', 'P', 'S', 'U'];

export interface CardInfo {
  readonly type?: 'CREDIT' | 'DEBIT' | 'PREPAID';
  readonly level?: string;
  readonly issuer?: { readonly bank?: string; readonly phone?: string; readonly website?: string };
  /** Whether the card falls under interchange regulation (card.regulatedFlag), where the issuer says. */
  readonly regulated?: boolean;
}

/**
 * A connector's answer. `unknown` means the connector cannot tell whether money moved
 * (timeout, unreadable answer); the gateway stores it as pending, never as success, and the
 * pending-resolution job asks the connector's status capability later. `pending` is an answer
 * still to come (an asynchronous method), with a redirect when the shopper has to act.
 */
export type OutcomeKind = 'success' | 'declined' | 'pending' | 'unknown';

/** Where the shopper must go to go on with a pending payment (a provider's page, a 3-D Secure ACS). */
export interface RedirectInstruction {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly parameters: readonly { readonly name: string; readonly value: string }[];
}

export interface ConnectorOutcome {
  readonly kind: OutcomeKind;
  /** A catalogue result code. */
  readonly code: string;
  readonly avsResponse?: AvsResponse;
  readonly cvvResponse?: CvvResponse;
  /** ConnectorTxID1..3, AcquirerResponse, clearingInstituteName, ExtendedDescription … */
  readonly resultDetails: Readonly<Record<string, string>>;
  /** Scheme reference of a card payment, for later merchant-initiated payments. */
  readonly schemeTransactionId?: string;
  readonly card?: CardInfo;
  /** With kind `pending` only: what the shopper must do before the payment can end. */
  readonly redirect?: RedirectInstruction;
  /**
   * With kind `declined` only: the acquirer did not process the request at all (nothing could be
   * sent, or a technical refusal such as "issuer or switch inoperative"), so nothing can have
   * moved and a fallback route the operator allows may serve the payment.
   */
  readonly notProcessed?: true;
}

/** A stored transaction whose outcome is still open, as the status capability is asked about it. */
export interface StatusRequest {
  readonly transactionId: string;
  readonly entityId: string;
  readonly paymentType: PaymentType;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly brand: string;
  readonly createdAt: Date;
  /** What the connector answered so far (ConnectorTxID1..3 …); empty when no answer came back. */
  readonly connectorReferences: ConnectorReferences;
  readonly credentials?: ConnectorCredentials | undefined;
  /** For a capture, refund or reversal: its parent. */
  readonly parent?: { readonly transactionId: string; readonly paymentType: PaymentType; readonly connectorReferences: ConnectorReferences } | undefined;
}

/** What came back when the shopper returned from a redirect: the connector decides the outcome. */
export interface CompletionRequest extends StatusRequest {
  /** The parameters the shopper's browser (or the provider) brought to the return endpoint. */
  readonly returned: Readonly<Record<string, string>>;
}

/** Which day's settlement a connector is asked for, with the route's credentials. */
export interface SettlementQuery {
  /** The settlement day, YYYY-MM-DD (the acquirer's business day, UTC). */
  readonly date: string;
  readonly credentials?: ConnectorCredentials | undefined;
}

export type SettlementRecordType = 'SETTLED' | 'CHARGEBACK' | 'CHARGEBACK_REVERSAL' | 'FEE';

/**
 * One line of what an acquirer settled, as its settlement file says it. The gateway matches it
 * to a stored transaction by `connectorReferences` (the ConnectorTxID1..3 the payment stored),
 * falling back to merchantTransactionId, amount and transaction date.
 */
export interface SettlementRecord {
  /** The acquirer's own id of this record: stable when the same file is delivered again. */
  readonly recordId: string;
  readonly type: SettlementRecordType;
  readonly status: 'SUCCESS' | 'FAILED';
  /** YYYY-MM-DD */
  readonly settlementDate: string;
  /** When the original transaction happened, as the acquirer saw it. */
  readonly transactionDate: Date;
  readonly clearingInstitute: string;
  /** The acquirer's batch (one per day, clearing institute and settlement currency). */
  readonly batchId: string;
  /** The original transaction's type as the acquirer settled it (DB, CP, RF, CD …). */
  readonly paymentType: PaymentType;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly settlementAmountMinor: bigint;
  readonly settlementCurrency: string;
  /** Decimal string, settlement currency per transaction currency ("1" when the same). */
  readonly fxRate: string;
  readonly feeMinor: bigint;
  readonly feeCurrency: string;
  readonly connectorReferences: ConnectorReferences;
  readonly merchantTransactionId?: string | undefined;
  /** Chargebacks and reversals: the catalogue code (000.100.2nn) and the scheme's reason. */
  readonly resultCode?: string | undefined;
  readonly reasonCode?: string | undefined;
  /**
   * The gateway merchant entity the line belongs to, when the connector knows it (the simulator
   * does). Otherwise the matched transaction's merchant, else the route's entity, tells.
   */
  readonly merchantEntityId?: string | undefined;
  /** The merchant's id at the acquirer (the file's ClearingInstituteMerchantId), when the file names it. */
  readonly clearingInstituteMerchantId?: string | undefined;
  /**
   * The acquirer's own kind of line (the file's PaymentType: DEBIT, CREDIT, REFUND, BATCH,
   * MONTHLY, AUTH_FEE …); absent, the gateway derives it from `paymentType`. FEE lines need it.
   */
  readonly transactionType?: string | undefined;
}

/**
 * One connector port for every kind of acquirer link (the simulator, an ISO 8583 host, a PSP's
 * API). Each operation answers a final outcome, a pending one (with a redirect when the shopper
 * must act) or `unknown`. What not every acquirer offers is a capability the connector declares:
 * `status` (re-query an open outcome; the pending-resolution job needs it, and a redirect that
 * expires is handed to it), `cancel` (give up a payment whose shopper left the provider's page),
 * `complete` (the shopper came back from a redirect) and `settlement` (the acquirer's daily settlement feed). `liveCapable` is false for anything that only simulates an acquirer: the live
 * system never routes to it.
 */
export interface Connector {
  readonly id: string;
  readonly policy: LifecyclePolicy;
  readonly liveCapable: boolean;
  authorize(request: PaymentConnectorRequest): Promise<ConnectorOutcome>;
  debit(request: PaymentConnectorRequest): Promise<ConnectorOutcome>;
  credit(request: PaymentConnectorRequest): Promise<ConnectorOutcome>;
  capture(request: ReferencingConnectorRequest): Promise<ConnectorOutcome>;
  refund(request: ReferencingConnectorRequest): Promise<ConnectorOutcome>;
  reverse(request: ReferencingConnectorRequest): Promise<ConnectorOutcome>;
  /** Asks what became of a transaction; `pending` or `unknown` when the acquirer cannot tell yet. */
  status?(request: StatusRequest): Promise<ConnectorOutcome>;
  /**
   * Gives up a payment that still waits for its shopper on the provider's page (the shopper
   * started another attempt instead), so that it can no longer succeed: `declined` once it is
   * ended (nothing moved), `success` when it came too late (the shopper had paid), `pending` or
   * `unknown` when the provider could not cancel it. The gateway starts no other attempt of the
   * same checkout until this says `declined`. Connectors that never redirect omit it.
   */
  cancel?(request: StatusRequest): Promise<ConnectorOutcome>;
  /**
   * The shopper came back from the redirect of a `pending` answer: what became of the payment.
   * A real connector verifies with its provider (never trusts the returned parameters alone);
   * `pending` when the provider has not decided yet. Connectors that never redirect omit it.
   */
  complete?(request: CompletionRequest): Promise<ConnectorOutcome>;
  /**
   * What the acquirer settled on a day, streamed record by record (a day may hold millions):
   * settled payments, fees, chargebacks and their reversals. Connectors without a settlement
   * feed omit it.
   */
  settlement?(query: SettlementQuery): AsyncIterable<SettlementRecord>;
  /**
   * The id of another connector whose settlement feed also carries transactions stored under this
   * one (the test platform's card payments go through the acquirer host and are settled in its
   * file): that feed is read once and matched against both connectors' transactions.
   */
  readonly settledInFeedOf?: string;
}

/**
 * Lets a connector check that a merchant-initiated payment's initialTransactionId is a scheme
 * reference the gateway handed out; the gateway's storage implements it.
 */
export interface SchemeReferenceStore {
  wasIssued(schemeTransactionId: string): Promise<boolean>;
}

/** The connector method of each payment type. */
export const INITIAL_OPERATIONS = { PA: 'authorize', DB: 'debit', CD: 'credit' } as const satisfies Record<InitialPaymentType, keyof Connector>;
export const REFERENCING_OPERATIONS = { CP: 'capture', RF: 'refund', RV: 'reverse' } as const satisfies Record<ReferencingPaymentType, keyof Connector>;

// Normalisation and the guarded call live beside the port; importers keep importing them from here.
export { callConnector, DEFAULT_CONNECTOR_TIMEOUT_MS, normalizeOutcome, type CallOptions, type NormalizedOutcome, type NormalizeOptions } from './normalize-outcome.js';
