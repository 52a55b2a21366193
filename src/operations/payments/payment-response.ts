import type { NormalizedOutcome, PaymentMethodData, RedirectInstruction } from '../../connectors/connector.js';
import { cardBin, cardLast4 } from '../../domain/card.js';
import { brandResultOf } from '../../domain/responses/brand-result.js';
import { formatAmount } from '../../domain/money.js';
import type { MerchantBankAccount } from '../../domain/responses/merchant-bank-account.js';
import type { PaymentType } from '../../domain/transaction.js';
import { resultOf, type ResultBody } from '../../http/envelope.js';

/**
 * A payment as the API shows it. Stored with the transaction (JSON), so GET, the query API and
 * webhooks answer with exactly what the creating request answered. Never a card number or CVV.
 */
export interface PaymentView {
  readonly body: Record<string, unknown>;
  readonly result: ResultBody;
  /**
   * storedResponse() as JSON text, once an outcome has been serialised for its row: the reply is
   * this text with the envelope appended, so a payment's answer is serialised once, not twice.
   */
  readonly storedJson?: string | undefined;
}

export interface PaymentViewInput {
  readonly id: string;
  readonly referencedId?: string | undefined;
  readonly paymentType: PaymentType;
  readonly paymentBrand: string | null;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly descriptor: string;
  readonly merchantTransactionId?: string | undefined;
  readonly shortId: string;
  readonly outcome: Pick<NormalizedOutcome, 'code' | 'avsResponse' | 'cvvResponse' | 'resultDetails' | 'card' | 'schemeTransactionId'>;
  readonly method?: PaymentMethodData | undefined;
  /** The request's own structures (customer, billing, cart, customParameters …), already masked. */
  readonly echo?: Readonly<Record<string, unknown>> | undefined;
  /** The registration this payment created (createRegistration=true) or paid with. */
  readonly registrationId?: string | undefined;
  /** What the gateway adds to the echoed standingInstruction; an INITIAL returns its scheme reference. */
  readonly standingInstruction?: { readonly shownAdditions: Readonly<Record<string, string>>; readonly startsSeries: boolean } | undefined;
  /** A pending answer's redirect: where the merchant sends the shopper. */
  readonly redirect?: RedirectInstruction | undefined;
  /** The gateway's own 3-D Secure authentication of this payment (eci, verificationId, version …). */
  readonly threeDSecure?: Readonly<Record<string, string>> | undefined;
  /** The account the shopper pays into (PREPAYMENT): merchant.bankAccount.*. */
  readonly merchantBankAccount?: MerchantBankAccount | null | undefined;
}

function standingInstructionView(input: PaymentViewInput, echoed: unknown): Record<string, unknown> | undefined {
  if (!input.standingInstruction) return undefined;
  const { shownAdditions, startsSeries } = input.standingInstruction;
  const schemeReference = input.outcome.schemeTransactionId;
  return {
    ...(echoed as object | undefined),
    ...shownAdditions,
    ...(startsSeries && schemeReference ? { initialTransactionId: schemeReference } : {}),
  };
}

function cardNumberOf(method: PaymentMethodData | undefined): string | undefined {
  const card = method?.kind === 'card' || method?.kind === 'walletDecrypted' ? method.card : undefined;
  return card?.number ?? (method?.kind === 'tokenAccount' ? method.token.number : undefined);
}

function cardView(method: PaymentMethodData | undefined, info: NormalizedOutcome['card']): Record<string, unknown> | undefined {
  const card = method?.kind === 'card' || method?.kind === 'walletDecrypted' ? method.card : undefined;
  const number = cardNumberOf(method);
  if (number === undefined) return undefined;
  return {
    bin: cardBin(number),
    last4Digits: cardLast4(number),
    ...(card?.holder ? { holder: card.holder } : {}),
    ...(card ? { expiryMonth: card.expiryMonth, expiryYear: card.expiryYear } : {}),
    ...(info?.type ? { type: info.type } : {}),
    ...(info?.level ? { level: info.level } : {}),
    ...(info?.issuer ? { issuer: { ...info.issuer } } : {}),
    ...(info?.regulated !== undefined ? { regulatedFlag: String(info.regulated) } : {}),
  };
}

export function buildPaymentView(input: PaymentViewInput): PaymentView {
  const { outcome } = input;
  const echo = { ...input.echo };
  // The echo's card block comes from the request (holder, expiry); the gateway's adds what the
  // connector learnt (type, level, issuer), so the two are merged rather than one replacing the other.
  const card = cardView(input.method, outcome.card);
  const body: Record<string, unknown> = {
    id: input.id,
    ...(input.registrationId ? { registrationId: input.registrationId } : {}),
    ...(input.referencedId ? { referencedId: input.referencedId } : {}),
    paymentType: input.paymentType,
    ...(input.paymentBrand ? { paymentBrand: input.paymentBrand } : {}),
    amount: formatAmount(input.amountMinor),
    currency: input.currency,
    descriptor: input.descriptor,
    ...(input.merchantTransactionId ? { merchantTransactionId: input.merchantTransactionId } : {}),
    ...(Object.keys(outcome.resultDetails).length > 0 ? { resultDetails: { ...outcome.resultDetails } } : {}),
  };
  // The gateway's own fields win over the echo of the same name (amount as approved, descriptor
  // as booked).
  for (const [name, value] of Object.entries(echo)) if (!(name in body)) body[name] = value;
  if (card) body['card'] = Object.assign({}, echo['card'] as object | undefined, card);
  body['shortId'] = input.shortId;
  const instruction = standingInstructionView(input, body['standingInstruction']);
  if (instruction) body['standingInstruction'] = instruction;
  // The authentication's result beside what the request sent (exemption flags are echoed).
  if (input.threeDSecure) body['threeDSecure'] = Object.assign({}, body['threeDSecure'] as object | undefined, input.threeDSecure);
  if (input.merchantBankAccount) body['merchant'] = Object.assign({}, body['merchant'] as object | undefined, { bankAccount: { ...input.merchantBankAccount } });
  const brandResult = brandResultOf(cardNumberOf(input.method));
  if (brandResult) body['brandResult'] = brandResult;
  if (input.redirect) body['redirect'] = { url: input.redirect.url, method: input.redirect.method, parameters: input.redirect.parameters.map((p) => ({ name: p.name, value: p.value })) };
  const result = resultOf(outcome.code, {
    ...(outcome.avsResponse ? { avsResponse: outcome.avsResponse } : {}),
    ...(outcome.cvvResponse ? { cvvResponse: outcome.cvvResponse } : {}),
  });
  return { body, result };
}

/** The stored form: the body with its result, as one JSON object. */
export function storedResponse(view: PaymentView): Record<string, unknown> {
  // { ...view.body, result } without its slow path: Node 20's V8 adds each property written
  // after a spread slowly (about 2 µs each; docs/performance.md).
  return Object.assign({}, view.body, { result: view.result });
}

export type SerialisedView = PaymentView & { readonly storedJson: string };

/** The view with its stored form serialised (storedJson). */
export function serialisedView(view: PaymentView): SerialisedView {
  return { body: view.body, result: view.result, storedJson: view.storedJson ?? JSON.stringify(storedResponse(view)) };
}

export function viewOfStored(stored: Record<string, unknown>): PaymentView {
  const { result, ...body } = stored;
  return { body, result: result as ResultBody };
}
