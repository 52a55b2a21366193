import { MINIMUM_FREQUENCY, OPEN_ENDED_EXPIRY, OPEN_ENDED_SERIES_BRANDS } from '../standing-instruction.js';

/**
 * What the AReq says about why the shopper is authenticated: threeDSRequestorAuthenticationInd
 * and, for a recurring (02) or instalment (03) series, the series data the EMV 3DS spec then
 * requires (recurringExpiry, recurringFrequency; purchaseInstalData for 03). Pure.
 */

/** threeDSecure.authenticationInd (request-types) as request values. */
export type AuthenticationIndName =
  | 'PAYMENT' | 'RECURRING' | 'INSTALLMENT' | 'ADD_CARD' | 'MAINTAIN_CARD' | 'EMV_ID'
  | 'BILLING_AGREEMENT' | 'SPLIT_SHIPMENT' | '_DELAYED_SHIPMENT' | 'SPLIT_PAYMENT';

/**
 * EMV 3DS 2.2.0 values 01-06. BILLING_AGREEMENT, SPLIT_SHIPMENT, _DELAYED_SHIPMENT and
 * SPLIT_PAYMENT are 2.3.1's 07-10, which the message rules (connectors/emv3ds) do not model and a
 * 2.2.0 ACS refuses: they are sent as 01 (payment), which is what they are.
 */
export const AUTHENTICATION_INDICATORS: Readonly<Record<AuthenticationIndName, RequestorAuthenticationInd>> = {
  PAYMENT: '01', RECURRING: '02', INSTALLMENT: '03', ADD_CARD: '04', MAINTAIN_CARD: '05', EMV_ID: '06',
  BILLING_AGREEMENT: '01', SPLIT_SHIPMENT: '01', _DELAYED_SHIPMENT: '01', SPLIT_PAYMENT: '01',
};

export type RequestorAuthenticationInd = '01' | '02' | '03' | '04' | '05' | '06';

export interface RequestorAuthenticationFacts {
  /** threeDSecure.authenticationInd */
  readonly authenticationInd?: string | undefined;
  /** standingInstruction.*; expiry in wire form (yyyy-mm-dd), frequency (N4) and numberOfInstallments (N3) as sent. */
  readonly standingInstruction?: {
    readonly type?: string | undefined;
    readonly mode?: string | undefined;
    readonly source?: string | undefined;
    readonly expiry?: string | undefined;
    readonly frequency?: string | undefined;
    readonly numberOfInstallments?: string | undefined;
  } | undefined;
  /** paymentBrand */
  readonly brand: string;
}

/** The AReq's fields; the series data only with 02 and 03. */
export interface RequestorAuthentication {
  readonly threeDSRequestorAuthenticationInd: RequestorAuthenticationInd;
  /** YYYYMMDD */
  readonly recurringExpiry?: string;
  /** Days, no leading zeros. */
  readonly recurringFrequency?: string;
  /** Maximum number of authorisations, more than 1. */
  readonly purchaseInstalData?: string;
}

const PAYMENT: RequestorAuthentication = { threeDSRequestorAuthenticationInd: '01' };

/** Digits without their leading zeros ('0030' → '30'); undefined for anything else. */
function count(value: string | undefined): string | undefined {
  return value !== undefined && /^\d+$/.test(value) ? String(Number(value)) : undefined;
}

/** What the request asks for: authenticationInd, else the series an INITIAL CIT starts, else a payment. */
function askedFor(facts: RequestorAuthenticationFacts): RequestorAuthenticationInd {
  const named = AUTHENTICATION_INDICATORS[facts.authenticationInd as AuthenticationIndName];
  if (named) return named;
  const si = facts.standingInstruction;
  if (!si) return '01';
  // The defaults of standing-instruction.ts: no mode is a first payment unless a MIT; no source is CIT unless REPEATED.
  const mode = si.mode ?? (si.source === 'MIT' ? 'REPEATED' : 'INITIAL');
  const source = si.source ?? (mode === 'REPEATED' ? 'MIT' : 'CIT');
  if (mode !== 'INITIAL' || source !== 'CIT') return '01';
  return si.type === 'RECURRING' ? '02' : si.type === 'INSTALLMENT' ? '03' : '01';
}

/**
 * The requestor authentication fields of an AReq (app and browser channels). A recurring or
 * instalment series without standingInstruction.expiry or frequency: VISA-family brands get
 * 9999-12-31 and 0001 (OPEN_ENDED_SERIES_BRANDS, as the payment's answer shows), other brands
 * are authenticated as a payment (01). An instalment also needs numberOfInstallments above 1
 * (purchaseInstalData), else 01.
 */
export function requestorAuthentication(facts: RequestorAuthenticationFacts): RequestorAuthentication {
  const indicator = askedFor(facts);
  if (indicator !== '02' && indicator !== '03') return { threeDSRequestorAuthenticationInd: indicator };
  const si = facts.standingInstruction ?? {};
  const openEnded = OPEN_ENDED_SERIES_BRANDS.includes(facts.brand);
  const expiry = si.expiry ?? (openEnded ? OPEN_ENDED_EXPIRY : undefined);
  const frequency = count(si.frequency ?? (openEnded ? MINIMUM_FREQUENCY : undefined));
  if (expiry === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(expiry) || frequency === undefined) return PAYMENT;
  const series = { recurringExpiry: expiry.replace(/-/g, ''), recurringFrequency: frequency };
  if (indicator === '02') return { threeDSRequestorAuthenticationInd: '02', ...series };
  const instalments = count(si.numberOfInstallments);
  if (instalments === undefined || Number(instalments) < 2) return PAYMENT;
  return { threeDSRequestorAuthenticationInd: '03', ...series, purchaseInstalData: instalments };
}
