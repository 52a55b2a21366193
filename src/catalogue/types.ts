/**
 * The shapes of the parameter catalogue. The catalogue is data: one ParameterRow per request
 * parameter (or name pattern), read by the one validation engine, the typed-request builder, the
 * echo, and the documentation renderers.
 */

/** The request kinds the catalogue knows; each row says how it is used by each of them. */
export const ENDPOINTS = [
  'payment', // POST /v1/payments: PA, DB, CD
  'referencing', // POST /v1/payments/{id}: CP, RV, RF
  'registration', // POST /v1/registrations
  'registrationPayment', // POST /v1/registrations/{id}/payments
  'checkout', // POST /v1/checkouts
  'checkoutPayment', // POST /v1/checkouts/{id}/payment, posted by the widget from the shopper's browser
  'query', // GET /v1/query
  'schedule', // POST /scheduling/v1/schedules
  'reporting', // GET /reports/v1/reconciliations/aggregations
] as const;

export type Endpoint = (typeof ENDPOINTS)[number];

/** R required, C conditional (a rule or the connector decides), O optional. Absent: not allowed. */
export type Requirement = 'R' | 'C' | 'O';

export type EndpointUse = Readonly<Partial<Record<Endpoint, Requirement>>>;

/** What a valid wire value becomes in the typed request. */
export type ValueKind =
  | 'text' // string as sent
  | 'amount' // bigint hundredths
  | 'boolean'
  | 'date' // yyyy-MM-dd → Date at UTC midnight
  | 'dateTime' // yyyy-MM-dd HH:mm:ss, read as UTC → Date
  | 'timestamp' // yyyy-MM-dd HH:mm:ss+hhmm → Date
  | 'integer' // number; only for small counters (numberOfCaptures, limit)
  | 'list'; // comma-separated → readonly string[]

/** How a secret value appears in parameterErrors: first six and last four, last four, or nothing. */
export type MaskStyle = 'pan' | 'last4' | 'full';

export interface SemanticCheck {
  readonly test: (value: string) => boolean;
  readonly message: string;
}

export interface FieldFormat {
  /** The format as the specification writes it, for the documentation. */
  readonly notation: string;
  /** Anchored regular expression source; shown in "must match …" and in the OpenAPI schema. */
  readonly pattern: string;
  readonly regex: RegExp;
  /** True when the pattern only bounds the length, so the regex need not run. */
  readonly lengthOnly: boolean;
  /** Length bounds in characters (code points); checked before the regex so huge values stay cheap. */
  readonly minLength: number;
  readonly maxLength: number;
  readonly kind: ValueKind;
  readonly enumValues?: readonly string[];
  /** Tab and line breaks: admitted only in text meant to span lines; other controls never. */
  readonly lineBreaks?: 'allowed';
  /** A check the regex cannot express (calendar dates, ISO code lists, URLs). */
  readonly semantic?: SemanticCheck;
  /** A value the format accepts, and one it rejects: the row tests are generated from them. */
  readonly sample: string;
  readonly badSample: string;
}

export interface ParameterRow {
  /**
   * The name or name pattern: `[n]` is a zero-based index, `[name]`, `[key]` and `[brand]` are
   * map keys; any other bracket content is literal (threeDSecure.schemeData[NF-ITEMSNB]).
   */
  readonly name: string;
  /** Heading the row is documented under. */
  readonly section: string;
  readonly format: FieldFormat;
  /** Format of the map key, for rows with a `[name]`, `[key]` or `[brand]` placeholder. */
  readonly keyFormat?: FieldFormat;
  readonly use: EndpointUse;
  /** Required whenever any parameter starting with this prefix is present ("R" inside a structure). */
  readonly requiredWithin?: string;
  /** Masked in parameterErrors and never echoed. */
  readonly secret?: MaskStyle;
  /** False for request controls (entityId, testMode, URLs) that a response does not echo. */
  readonly echo: boolean;
  /** Result code when the value breaks the format. */
  readonly code: string;
  /** Result code when the parameter is required and missing. */
  readonly missingCode: string;
  readonly description: string;
  /** Overrides of the format's samples where the row needs a value of its own. */
  readonly validSample: string;
  readonly invalidSample: string;
}

/** The parsed form body: a key sent twice arrives as an array. */
export type RequestBody = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What a name no endpoint knows gets: refused (the default, naming it) or ignored and listed. */
export type UnknownParameterMode = 'reject' | 'ignore';

export interface ValidationContext {
  /** The request's clock reading; card expiry is judged against it. */
  readonly now: Date;
  /** The entity's setting; 'reject' when absent. */
  readonly unknownParameters?: UnknownParameterMode;
}
