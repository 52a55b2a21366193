/**
 * What the risk rules see of one payment: plain data gathered by the evaluate operation (the
 * request, the entity's lists and the velocity counts read in one statement). Never a card
 * number: the card is its vault fingerprint, its BIN and nothing else.
 */
export interface RiskFacts {
  readonly paymentType: 'PA' | 'DB' | 'CD';
  /**
   * The payment's own amount. Never risk.amount: the merchant sends that one, and the operator's
   * amount limits and velocity sums must count what is charged (docs/risk.md).
   */
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly brand: string | null;
  /** PaymentMethodData['kind']. */
  readonly methodKind: string;
  /**
   * Whether a 3-D Secure step-up can run: a card PA or DB with the shopper present (not a credit,
   * not a merchant-initiated standing instruction, as plan.ts decides).
   */
  readonly canAuthenticate: boolean;
  readonly cardFingerprint?: string | undefined;
  readonly bin?: string | undefined;
  /** The issuer country of the BIN when the entity's rule set names it (binCountries). */
  readonly binCountry?: string | undefined;
  readonly ibanFingerprint?: string | undefined;
  readonly email?: string | undefined;
  readonly ip?: string | undefined;
  readonly customerId?: string | undefined;
  readonly billingCountry?: string | undefined;
  readonly shippingCountry?: string | undefined;
  /** risk.parameters[name] as sent, plus risk.channelId / risk.serviceId under those names. */
  readonly parameters: Readonly<Record<string, string>>;
  /** The list entries this payment matched (blacklist and whitelist), read with the counts. */
  readonly listHits: readonly ListHit[];
  /** One count per velocity rule of the rule set, in the rule set's order. */
  readonly velocity: readonly VelocityCount[];
}

export type ListName = 'black' | 'white';
export const LIST_NAMES: readonly ListName[] = ['black', 'white'];

export type ListKind = 'card' | 'bin' | 'iban' | 'email' | 'ip' | 'country';
export const LIST_KINDS: readonly ListKind[] = ['card', 'bin', 'iban', 'email', 'ip', 'country'];

export interface ListHit {
  readonly list: ListName;
  readonly kind: ListKind;
  /** For a country: which country of the payment matched (billing, shipping or BIN issuer). */
  readonly source?: string | undefined;
}

export type VelocityKey = 'card' | 'email' | 'ip' | 'customer';
export const VELOCITY_KEYS: readonly VelocityKey[] = ['card', 'email', 'ip', 'customer'];

export interface VelocityCount {
  /** Attempts before this one within the rule's window (this payment not included). */
  readonly attempts: number;
  readonly declines: number;
  /** Sum of earlier attempts in the payment's currency within the window. */
  readonly amountMinor: bigint;
}

export const NO_ATTEMPTS: VelocityCount = Object.freeze({ attempts: 0, declines: 0, amountMinor: 0n });
