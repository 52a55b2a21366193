import { createHash } from 'node:crypto';
import { detectedTypes } from '../../domain/card.js';
import { retryAdvice } from '../../domain/schedules/plan.js';
import type { CardInfo, ConnectorOutcome } from '../connector.js';
import type { SimulatorInput } from './input.js';
import { SUCCESS, type SimulatorRow } from './row.js';
import { AVS_ROWS, CVV_ROWS, letterFor, type SimulatorFlavour } from './tables.js';

/**
 * Card data the simulated issuers report, by card scheme (credit-card-type's names). The
 * Mastercard issuer's consumer debit cards count as regulated (interchange-capped), the credit
 * cards not, so card.regulatedFlag shows both values on the test system.
 */
export const SIMULATED_ISSUERS: Readonly<Record<string, CardInfo>> = Object.freeze({
  visa: { type: 'CREDIT', regulated: false, issuer: { bank: 'Simulated Visa Issuing Bank', phone: '+49 30 5550100', website: 'https://visa-issuer.simulator.invalid' } },
  mastercard: { type: 'DEBIT', regulated: true, issuer: { bank: 'Simulated Mastercard Issuing Bank', phone: '+49 30 5550200', website: 'https://mastercard-issuer.simulator.invalid' } },
  'american-express': { type: 'CREDIT', regulated: false, issuer: { bank: 'Simulated Amex Issuer', phone: '+49 30 5550300', website: 'https://amex-issuer.simulator.invalid' } },
});

export interface OutcomeContext {
  readonly flavour: SimulatorFlavour;
  /** The acquirer's id of this transaction, from the injected id generator. */
  readonly generatedId: string;
}

/** The connector answer for `input` decided by `row`. Deterministic: same input, id and clock, same outcome. */
export function buildOutcome(row: SimulatorRow, input: SimulatorInput, context: OutcomeContext): ConnectorOutcome {
  const { outcome } = row;
  const code = outcome.code === SUCCESS ? context.flavour.successCode : outcome.code;
  const reference = `${context.flavour.referencePrefix}-${context.generatedId}`;
  const succeeded = outcome.kind === 'success';
  const cardPayment = input.pan !== null && input.parentReference === null;
  const avsResponse = outcome.avsResponse ?? (row.lettersFromTables ? letterFor(AVS_ROWS, input.postcode) : null);
  const cvvResponse = outcome.cvvResponse ?? (row.lettersFromTables ? letterFor(CVV_ROWS, input.cvv) : null);
  const card = cardPayment ? simulatedCardInfo(input.pan!) : undefined;
  const digits = referenceDigits(reference);
  return {
    kind: outcome.kind,
    code,
    resultDetails: {
      ConnectorTxID1: reference,
      ...(succeeded ? { ConnectorTxID2: digits(0, 6) } : {}),
      ConnectorTxID3: retrievalReferenceNumber(input.now, digits(1, 6)),
      AcquirerResponse: outcome.acquirerResponse,
      clearingInstituteName: context.flavour.clearingInstituteName,
      ExtendedDescription: outcome.extendedDescription,
      ...merchantAdviceOf(outcome.kind, code, card === undefined ? undefined : input.pan!),
    },
    ...(avsResponse ? { avsResponse } : {}),
    ...(cvvResponse ? { cvvResponse } : {}),
    ...(succeeded && cardPayment ? { schemeTransactionId: `SIM${digits(2, 15)}` } : {}),
    ...(card ? { card } : {}),
  };
}

/**
 * resultDetails.MerchantAdviceCode of a declined Mastercard payment, as Mastercard acquirers pass
 * it on: 02 (try again later) where a later attempt can succeed, 03 (do not try again) otherwise.
 * It follows the schedules' own reading of the code (retryAdvice), so it never changes whether a
 * schedule retries.
 */
function merchantAdviceOf(kind: ConnectorOutcome['kind'], code: string, pan: string | undefined): { MerchantAdviceCode?: string } {
  if (kind !== 'declined' || pan === undefined || detectedTypes(pan)[0] !== 'mastercard') return {};
  return { MerchantAdviceCode: retryAdvice(code, undefined).retry ? '02' : '03' };
}

export function simulatedCardInfo(pan: string): CardInfo | undefined {
  const scheme = detectedTypes(pan)[0];
  return scheme ? SIMULATED_ISSUERS[scheme] : undefined;
}

/** ISO 8583 field 37 style: last digit of the year, day of the year, hour, then six digits of the reference. */
function retrievalReferenceNumber(now: Date, sixDigits: string): string {
  const startOfYear = Date.UTC(now.getUTCFullYear(), 0, 1);
  const dayOfYear = Math.floor((now.getTime() - startOfYear) / 86_400_000) + 1;
  const prefix = `${now.getUTCFullYear() % 10}${String(dayOfYear).padStart(3, '0')}${String(now.getUTCHours()).padStart(2, '0')}`;
  return prefix + sixDigits;
}

/**
 * Decimal digits derived from the reference, the same every time: `digits(part, count)` reads
 * the part-th 8 bytes of one SHA-256 of it (parts 0 to 3), so the approval code, the retrieval
 * number and the scheme reference differ from one another without a hash each.
 */
function referenceDigits(reference: string): (part: number, count: number) => string {
  const digest = createHash('sha256').update(reference).digest();
  return (part, count) => (digest.readBigUInt64BE(part * 8) % 10n ** BigInt(count)).toString().padStart(count, '0');
}
