import { AVS_RESPONSES, CVV_RESPONSES, type AvsResponse, type ConnectorOutcome, type CvvResponse } from '../connector.js';
import type { IsoMessage } from './message.js';
import type { AcquirerProfile } from './profile.js';
import { parsePrivateData } from './private-data.js';
import { OTHER_AMOUNT_ROW, responseCodeRow, type ResponseCodeRow } from './response-codes.js';

/** A catalogue code for "timeout, uncertain result": the answer never came. */
export const NO_ANSWER_CODE = '900.100.300';
/** Nothing was sent (no connection to the host could be opened): nothing can have moved. */
export const HOST_DOWN_CODE = '900.100.600';
/** The request was reversed by advice after it went unanswered. */
export const REVERSED_AFTER_TIMEOUT_CODE = '900.100.301';

/** An answer read: its outcome, and whether a reversal advice must undo what the host may have booked. */
export interface AnswerReading {
  readonly outcome: ConnectorOutcome;
  readonly mayHaveMovedMoney: boolean;
}

/**
 * The outcome of an answer: field 39 through the response-code table, and the references that
 * follow-ups, status checks and settlement matching use: ConnectorTxID1 the RRN (field 37),
 * ConnectorTxID2 the STAN (field 11), ConnectorTxID3 the authorisation code (field 38). Anything
 * that is neither a clean decline nor an approval of the requested amount may have moved money:
 * it is answered as a rejection that the caller must reverse by advice.
 */
export function readAnswer(answer: IsoMessage, request: IsoMessage, profile: AcquirerProfile, successCode: string): AnswerReading {
  const row = rowOf(answer, request, profile);
  const outcome = outcomeOf(answer, row, profile, successCode);
  return { outcome, mayHaveMovedMoney: row.verdict === 'reverse' };
}

function rowOf(answer: IsoMessage, request: IsoMessage, profile: AcquirerProfile): ResponseCodeRow {
  const row = responseCodeRow(answer.fields[39], profile.responseCodes);
  return row.verdict === 'approved' && !sameAmount(request.fields[4], answer.fields[4]) ? OTHER_AMOUNT_ROW : row;
}

/** An answer that leaves field 4 out approves the request's amount (the 1987 standard echoes it). */
function sameAmount(requested: string | undefined, answered: string | undefined): boolean {
  if (answered === undefined) return true;
  if (requested === undefined || !/^\d+$/.test(requested) || !/^\d+$/.test(answered)) return false;
  return BigInt(requested) === BigInt(answered);
}

function outcomeOf(answer: IsoMessage, row: ResponseCodeRow, profile: AcquirerProfile, successCode: string): ConnectorOutcome {
  const field39 = answer.fields[39];
  const resultDetails: Record<string, string> = { ...(field39 !== undefined ? { AcquirerResponse: field39 } : {}), clearingInstituteName: profile.clearingInstituteName };
  const references: [string, number][] = [['ConnectorTxID1', 37], ['ConnectorTxID2', 11], ['ConnectorTxID3', 38]];
  for (const [name, field] of references) {
    const value = answer.fields[field]?.trim();
    if (value) resultDetails[name] = value;
  }
  // A decline's merchant advice code (01 new account information, 02 try later, 03 do not try again): the schedules' retries read it.
  const data = parsePrivateData(answer.fields[48]);
  const advice = data['MAC'];
  // The scheme's transaction id of an approved payment: merchant-initiated payments later quote it.
  const schemeTransactionId = row.verdict === 'approved' && data['TID'] && /^[0-9A-Za-z]{1,64}$/.test(data['TID']) ? data['TID'] : undefined;
  if (advice && /^\d{2}$/.test(advice)) resultDetails['MerchantAdviceCode'] = advice;
  const [avs, cvv] = (answer.fields[44] ?? '').split('');
  return {
    kind: row.verdict === 'approved' ? 'success' : 'declined',
    code: row.code ?? successCode,
    resultDetails,
    ...(AVS_RESPONSES.includes(avs as AvsResponse) ? { avsResponse: avs as AvsResponse } : {}),
    ...(CVV_RESPONSES.includes(cvv as CvvResponse) ? { cvvResponse: cvv as CvvResponse } : {}),
    ...(row.verdict === 'technical' ? { notProcessed: true as const } : {}),
    ...(schemeTransactionId ? { schemeTransactionId } : {}),
  };
}
