/**
 * Card on file (standing instruction): which combinations of standingInstruction.* and shopper
 * authentication data a payment may carry, and what the gateway fills in. Pure rules over plain
 * facts, in precedence order: the first broken rule decides the answer.
 */

export type InstructionType = 'UNSCHEDULED' | 'INSTALLMENT' | 'RECURRING';
export type InstructionMode = 'INITIAL' | 'REPEATED';
export type InstructionSource = 'CIT' | 'MIT';
export type IndustryPractice = 'INCREMENTAL_AUTH' | 'RESUBMISSION' | 'REAUTHORIZATION' | 'DELAYED_CHARGES' | 'NO_SHOW';

/** standingInstruction.* of a request; expiry in wire form (yyyy-mm-dd). */
export interface StandingInstructionInput {
  readonly type?: InstructionType | undefined;
  readonly recurringType?: string | undefined;
  readonly mode?: InstructionMode | undefined;
  readonly source?: InstructionSource | undefined;
  readonly initialTransactionId?: string | undefined;
  readonly industryPractice?: IndustryPractice | undefined;
  readonly expiry?: string | undefined;
  readonly frequency?: string | undefined;
  readonly numberOfInstallments?: string | undefined;
}

export interface StandingInstructionFacts {
  readonly instruction: StandingInstructionInput | undefined;
  /** card-like accounts carry scheme references; wallets authenticate with their own cryptogram. */
  readonly account: 'card' | 'tokenAccount' | 'wallet' | 'other';
  readonly brand: string;
  /** Shopper authentication the request carries, by parameter name (card.cvv, threeDSecure.eci …). */
  readonly shopperAuthentication: readonly string[];
  /** The request asks the gateway to run a 3D Secure authentication. */
  readonly threeDSecureRequested: boolean;
  /** Set when the gateway stores the card (a payment with a registration). */
  readonly registration?: { readonly initialSchemeReference: string | null } | undefined;
}

export interface RuleViolation {
  readonly rule: string;
  readonly code: string;
  readonly parameter: string;
  readonly message: string;
}

/** What the gateway does with an accepted standing instruction. */
export interface StandingInstructionPlan {
  readonly mode: InstructionMode;
  readonly source: InstructionSource;
  /** The scheme reference the connector gets: the request's, or the registration's for a MIT. */
  readonly initialTransactionId: string | undefined;
  /** An INITIAL payment answers with its own scheme reference as standingInstruction.initialTransactionId. */
  readonly returnsSchemeReference: boolean;
  /** Values the gateway fills in for 3D Secure on recurring or installment series. */
  readonly defaults: { readonly expiry?: string; readonly frequency?: string };
  /** authenticationInd of a 3D Secure request: the series type, or PAYMENT where the data is missing. */
  readonly threeDSecureIndicator: 'RECURRING' | 'INSTALLMENT' | 'PAYMENT' | undefined;
}

export type StandingInstructionDecision =
  | { readonly ok: true; readonly plan: StandingInstructionPlan | undefined }
  | { readonly ok: false; readonly violation: RuleViolation };

/** The facts with the defaults of absent mode and source applied. */
interface Effective extends StandingInstructionFacts {
  readonly instruction: StandingInstructionInput;
  readonly mode: InstructionMode;
  readonly source: InstructionSource;
  readonly threeDSecure: boolean;
  readonly cardLike: boolean;
}

export interface StandingInstructionRule {
  readonly id: string;
  readonly description: string;
  readonly code: string;
  check(facts: Effective): Omit<RuleViolation, 'rule' | 'code'> | undefined;
}

const WRONG_RECURRING_DATA = '600.200.501';
const MISSING_PARAMETER = '200.300.404';
const NO_VALID_INITIAL_REGISTRATION = '100.150.300';

/**
 * The card network for which the platform itself sends expiry 9999-12-31 and frequency 0001 when
 * they are absent (the specification says "one card network"; the public interface names VISA).
 */
export const OPEN_ENDED_SERIES_BRANDS: readonly string[] = ['VISA', 'VISADEBIT', 'VISAELECTRON', 'VPAY'];
export const OPEN_ENDED_EXPIRY = '9999-12-31';
export const MINIMUM_FREQUENCY = '0001';

const has3DS = (name: string) => name.startsWith('threeDSecure.');

export const STANDING_INSTRUCTION_RULES: readonly StandingInstructionRule[] = [
  {
    id: 'mitIsNeverInitial',
    description: 'A merchant-initiated transaction follows an initial one: source MIT needs mode REPEATED.',
    code: WRONG_RECURRING_DATA,
    check: (f) => (f.source === 'MIT' && f.mode === 'INITIAL' ? { parameter: 'standingInstruction.mode', message: 'must be REPEATED when standingInstruction.source is MIT' } : undefined),
  },
  {
    id: 'industryPracticeIsMerchantInitiated',
    description: 'industryPractice marks merchant-initiated follow-ups: it cannot come with source CIT or mode INITIAL.',
    code: WRONG_RECURRING_DATA,
    check: (f) =>
      f.instruction.industryPractice && (f.source === 'CIT' || f.mode === 'INITIAL')
        ? { parameter: 'standingInstruction.industryPractice', message: 'is for merchant-initiated REPEATED transactions only' }
        : undefined,
  },
  {
    id: 'initialReferencesNothing',
    description: 'An INITIAL transaction starts the series: it carries no initialTransactionId.',
    code: WRONG_RECURRING_DATA,
    check: (f) =>
      f.mode === 'INITIAL' && f.instruction.initialTransactionId
        ? { parameter: 'standingInstruction.initialTransactionId', message: 'must be absent on an INITIAL transaction: it starts the series' }
        : undefined,
  },
  {
    id: 'installmentCountOnlyForInstallments',
    description: 'numberOfInstallments is omitted for types other than INSTALLMENT.',
    code: WRONG_RECURRING_DATA,
    check: (f) =>
      f.instruction.numberOfInstallments !== undefined && f.instruction.type !== 'INSTALLMENT'
        ? { parameter: 'standingInstruction.numberOfInstallments', message: 'is only allowed with standingInstruction.type INSTALLMENT' }
        : undefined,
  },
  {
    id: 'initialCarriesShopperAuthentication',
    description: 'An INITIAL card transaction carries a CVV or 3D Secure data (wallets bring their own cryptogram).',
    code: WRONG_RECURRING_DATA,
    check: (f) =>
      f.mode === 'INITIAL' && f.cardLike && f.shopperAuthentication.length === 0 && !f.threeDSecureRequested
        ? { parameter: f.account === 'tokenAccount' ? 'tokenAccount.cryptogram' : 'card.cvv', message: 'an INITIAL standing instruction needs card.cvv or 3D Secure data' }
        : undefined,
  },
  {
    id: 'repeatedCarriesNoShopperAuthentication',
    description: 'A REPEATED transaction is made without the shopper: no CVV and no 3D Secure authentication values.',
    code: WRONG_RECURRING_DATA,
    check: (f) => {
      const found = f.shopperAuthentication[0];
      return f.mode === 'REPEATED' && found !== undefined
        ? { parameter: found, message: 'must be absent on a REPEATED standing instruction: the shopper is not present' }
        : undefined;
    },
  },
  {
    id: 'mitNeedsInitialTransactionId',
    description: 'A MIT with card data the gateway does not store names the scheme reference of the initial CIT.',
    code: MISSING_PARAMETER,
    check: (f) =>
      f.source === 'MIT' && f.cardLike && !f.registration && !f.instruction.initialTransactionId
        ? { parameter: 'standingInstruction.initialTransactionId', message: 'is required for a MIT with card data the gateway does not store' }
        : undefined,
  },
  {
    id: 'registrationMitNeedsInitialCit',
    description: 'A MIT with a stored card needs the registration\'s initial CIT (or recurring migration), unless the request names one.',
    code: NO_VALID_INITIAL_REGISTRATION,
    check: (f) =>
      f.source === 'MIT' && f.cardLike && f.registration && !f.registration.initialSchemeReference && !f.instruction.initialTransactionId
        ? { parameter: 'standingInstruction.source', message: 'MIT needs a successful INITIAL CIT payment with this registration, or a recurring migration' }
        : undefined,
  },
  {
    id: 'installmentNeedsCount',
    description: 'With 3D Secure, an INSTALLMENT series states numberOfInstallments.',
    code: MISSING_PARAMETER,
    check: (f) =>
      f.instruction.type === 'INSTALLMENT' && f.threeDSecure && f.instruction.numberOfInstallments === undefined
        ? { parameter: 'standingInstruction.numberOfInstallments', message: 'is required for INSTALLMENT with 3D Secure' }
        : undefined,
  },
];

function effectiveFacts(facts: StandingInstructionFacts, instruction: StandingInstructionInput): Effective {
  // Absent mode: a MIT or an industry practice is a follow-up; anything else starts a series.
  const mode = instruction.mode ?? (instruction.source === 'MIT' || instruction.industryPractice ? 'REPEATED' : 'INITIAL');
  // Absent source: a follow-up has no shopper present (MIT); a first payment has one (CIT).
  const source = instruction.source ?? (mode === 'REPEATED' ? 'MIT' : 'CIT');
  const threeDSecure = facts.threeDSecureRequested || facts.shopperAuthentication.some(has3DS);
  return { ...facts, instruction, mode, source, threeDSecure, cardLike: facts.account === 'card' || facts.account === 'tokenAccount' };
}

function threeDSecureSeriesData(f: Effective): Pick<StandingInstructionPlan, 'defaults' | 'threeDSecureIndicator'> {
  const type = f.instruction.type;
  if (!f.threeDSecure || (type !== 'RECURRING' && type !== 'INSTALLMENT')) return { defaults: {}, threeDSecureIndicator: undefined };
  const { expiry, frequency } = f.instruction;
  if (OPEN_ENDED_SERIES_BRANDS.includes(f.brand)) {
    const defaults = { ...(expiry ? {} : { expiry: OPEN_ENDED_EXPIRY }), ...(frequency ? {} : { frequency: MINIMUM_FREQUENCY }) };
    return { defaults, threeDSecureIndicator: type };
  }
  // Other brands: without the series data the authentication is requested as a plain payment.
  return { defaults: {}, threeDSecureIndicator: expiry && frequency ? type : 'PAYMENT' };
}

/** Checks a payment's standing instruction and plans what to send; no instruction, no plan. */
export function decideStandingInstruction(facts: StandingInstructionFacts): StandingInstructionDecision {
  if (!facts.instruction) return { ok: true, plan: undefined };
  const f = effectiveFacts(facts, facts.instruction);
  for (const rule of STANDING_INSTRUCTION_RULES) {
    const broken = rule.check(f);
    if (broken) return { ok: false, violation: { rule: rule.id, code: rule.code, ...broken } };
  }
  const fromRegistration = f.source === 'MIT' ? (f.registration?.initialSchemeReference ?? undefined) : undefined;
  return {
    ok: true,
    plan: {
      mode: f.mode,
      source: f.source,
      initialTransactionId: f.instruction.initialTransactionId ?? fromRegistration,
      returnsSchemeReference: f.mode === 'INITIAL',
      ...threeDSecureSeriesData(f),
    },
  };
}
