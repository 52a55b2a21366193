import currencyCodes from 'currency-codes';
import type { CardDetails, ConnectorCredentials, PaymentConnectorRequest, ReferencingConnectorRequest } from '../connector.js';
import type { InitialPaymentType } from '../../domain/transaction.js';
import type { IsoMessage } from './message.js';
import { formatPrivateData } from './private-data.js';
import type { AcquirerProfile } from './profile.js';
import { transmissionFields } from './stan.js';

/**
 * The requests of each operation, as pure functions of the connector request, a STAN and the
 * time. Card data goes into the message object only; nothing here logs or keeps it.
 */

/** What a reversal advice needs of the request it undoes: no card data, so it may be stored in a job. */
export interface AdviceOriginal {
  readonly transactionId: string;
  readonly mti: string;
  readonly processingCode: string;
  readonly amount: string;
  readonly currency: string;
  readonly stan: string;
  readonly transmission: string;
  readonly terminalId: string;
  readonly merchantId: string;
}

export interface Terminal {
  readonly terminalId: string;
  readonly merchantId: string;
}

/** The route's terminal (credentials terminalId and merchantId), padded as fields 41 and 42 want. */
export function terminalOf(credentials: ConnectorCredentials | undefined, fallback: Terminal): Terminal {
  const terminalId = credentials?.['terminalId'] ?? fallback.terminalId;
  const merchantId = credentials?.['merchantId'] ?? fallback.merchantId;
  return { terminalId: terminalId.padEnd(8, ' ').slice(0, 8), merchantId: merchantId.padEnd(15, ' ').slice(0, 15) };
}

export function numericCurrency(currency: string): string | undefined {
  return currencyCodes.code(currency)?.number;
}

function common(profile: AcquirerProfile, terminal: Terminal, stan: string, now: Date, amountMinor: bigint, currency: string): Record<number, string> {
  return {
    4: amountMinor.toString().padStart(12, '0'),
    ...transmissionFields(now),
    11: stan,
    18: profile.merchantCategoryCode,
    32: profile.acquiringInstitutionId,
    41: terminal.terminalId,
    42: terminal.merchantId,
    49: numericCurrency(currency) ?? '000',
  };
}

/** The card a payment draws on: the card itself or a wallet's decrypted card. */
export function cardOf(request: PaymentConnectorRequest): CardDetails | undefined {
  if (request.method.kind === 'card') return request.method.card;
  if (request.method.kind === 'walletDecrypted') return request.method.card;
  return undefined;
}

export function paymentMessage(operation: InitialPaymentType, request: PaymentConnectorRequest, card: CardDetails, profile: AcquirerProfile, terminal: Terminal, stan: string, now: Date): IsoMessage {
  const fields: Record<number, string> = {
    ...common(profile, terminal, stan, now, request.amountMinor, request.currency),
    2: card.number,
    3: operation === 'CD' ? profile.processingCodes.credit : profile.processingCodes.purchase,
    14: `${card.expiryYear.slice(-2)}${card.expiryMonth.padStart(2, '0')}`,
    22: '010',
    25: '59',
    48: formatPrivateData({
      GW: request.transactionId,
      ZIP: request.billing?.postcode?.replace(/[^A-Za-z0-9 ]/g, ''),
      // 3-D Secure result and the standing instruction: what the scheme needs for liability and for merchant-initiated payments.
      ECI: request.threeDSecure?.eci,
      CAVV: request.threeDSecure?.verificationId,
      SI: request.standingInstruction?.source,
      TID: request.standingInstruction?.initialTransactionId,
    }),
  };
  if (card.cvv) fields[126] = card.cvv;
  return { mti: operation === 'PA' ? profile.mti.authorization : profile.mti.financial, fields };
}

export function captureMessage(request: ReferencingConnectorRequest, profile: AcquirerProfile, terminal: Terminal, stan: string, now: Date): IsoMessage {
  const parent = request.parent.connectorReferences;
  const fields: Record<number, string> = {
    ...common(profile, terminal, stan, now, request.amountMinor, request.currency),
    3: profile.processingCodes.purchase,
    48: formatPrivateData({ GW: request.transactionId, ORIG: request.parent.transactionId }),
  };
  if (parent['ConnectorTxID1']) fields[37] = parent['ConnectorTxID1'];
  if (parent['ConnectorTxID3']) fields[38] = parent['ConnectorTxID3'];
  return { mti: profile.mti.completion, fields };
}

export function refundMessage(request: ReferencingConnectorRequest, profile: AcquirerProfile, terminal: Terminal, stan: string, now: Date): IsoMessage {
  return {
    mti: profile.mti.financial,
    fields: {
      ...common(profile, terminal, stan, now, request.amountMinor, request.currency),
      3: profile.processingCodes.refund,
      48: formatPrivateData({ GW: request.transactionId, ORIG: request.parent.transactionId }),
    },
  };
}

/** A merchant's void: the parent's amount, its RRN, and field 90 when the parent's STAN is known. */
export function reversalMessage(request: ReversalInput, profile: AcquirerProfile, terminal: Terminal, stan: string, now: Date): IsoMessage {
  const fields: Record<number, string> = {
    ...common(profile, terminal, stan, now, request.amountMinor, request.currency),
    3: profile.processingCodes.purchase,
    48: formatPrivateData({ GW: request.transactionId, ORIG: request.parent.transactionId }),
  };
  const rrn = request.parent.connectorReferences['ConnectorTxID1'];
  if (rrn) fields[37] = rrn;
  return { mti: profile.mti.reversal, fields };
}

/** A reversal as the operation sends it, or as a status check sends it again. */
export interface ReversalInput {
  readonly transactionId: string;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly parent: { readonly transactionId: string; readonly connectorReferences: Readonly<Record<string, string>> };
}

/** The gateway's reversal advice of a request left without answer (0420, then 0421 when repeated). */
export function adviceMessage(original: AdviceOriginal, profile: AcquirerProfile, stan: string, now: Date, repeat: boolean): IsoMessage {
  const fields: Record<number, string> = {
    3: original.processingCode,
    4: original.amount,
    ...transmissionFields(now),
    11: stan,
    32: profile.acquiringInstitutionId,
    // 68: "response received too late", the reason the gateway reverses.
    39: '68',
    41: original.terminalId,
    42: original.merchantId,
    48: formatPrivateData({ ORIG: original.transactionId }),
    49: original.currency,
  };
  if (original.stan && original.transmission) {
    fields[90] = `${original.mti}${original.stan}${original.transmission}${profile.acquiringInstitutionId.padStart(11, '0')}${'0'.repeat(11)}`;
  }
  return { mti: repeat ? profile.mti.reversalAdviceRepeat : profile.mti.reversalAdvice, fields };
}

/** What of a request an advice keeps (never field 2, 14, 35, 45, 52 or the CVV2). */
export function adviceOriginal(transactionId: string, request: IsoMessage): AdviceOriginal {
  const f = request.fields;
  return {
    transactionId,
    mti: request.mti,
    processingCode: f[3] ?? '000000',
    amount: f[4] ?? '000000000000',
    currency: f[49] ?? '000',
    stan: f[11] ?? '',
    transmission: f[7] ?? '',
    terminalId: f[41] ?? '',
    merchantId: f[42] ?? '',
  };
}
