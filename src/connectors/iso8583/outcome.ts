import { AVS_RESPONSES, CVV_RESPONSES, type AvsResponse, type ConnectorOutcome, type CvvResponse } from '../connector.js';
import type { IsoMessage } from './message.js';
import type { AcquirerProfile } from './profile.js';
import { parsePrivateData } from './private-data.js';
import { responseCodeRow } from './response-codes.js';

/** A catalogue code for "timeout, uncertain result": the answer never came. */
export const NO_ANSWER_CODE = '900.100.300';
/** Nothing was sent (no connection to the host could be opened): nothing can have moved. */
export const HOST_DOWN_CODE = '900.100.600';
/** The request was reversed by advice after it went unanswered. */
export const REVERSED_AFTER_TIMEOUT_CODE = '900.100.301';

/**
 * The outcome of an answer: field 39 through the response-code table, and the references that
 * follow-ups, status checks and settlement matching use: ConnectorTxID1 the RRN (field 37),
 * ConnectorTxID2 the STAN (field 11), ConnectorTxID3 the authorisation code (field 38).
 */
export function outcomeOf(answer: IsoMessage, profile: AcquirerProfile, successCode: string): ConnectorOutcome {
  const field39 = answer.fields[39] ?? '';
  const row = responseCodeRow(field39, profile.responseCodes);
  const resultDetails: Record<string, string> = { AcquirerResponse: field39, clearingInstituteName: profile.clearingInstituteName };
  const references: [string, number][] = [['ConnectorTxID1', 37], ['ConnectorTxID2', 11], ['ConnectorTxID3', 38]];
  for (const [name, field] of references) {
    const value = answer.fields[field]?.trim();
    if (value) resultDetails[name] = value;
  }
  // A decline's merchant advice code (01 new account information, 02 try later, 03 do not try again): the schedules' retries read it.
  const data = parsePrivateData(answer.fields[48]);
  const advice = data['MAC'];
  // The scheme's transaction id of an approved payment: merchant-initiated payments later quote it.
  const schemeTransactionId = row.kind === 'success' && data['TID'] && /^[0-9A-Za-z]{1,64}$/.test(data['TID']) ? data['TID'] : undefined;
  if (advice && /^\d{2}$/.test(advice)) resultDetails['MerchantAdviceCode'] = advice;
  const [avs, cvv] = (answer.fields[44] ?? '').split('');
  return {
    kind: row.kind,
    code: row.code ?? successCode,
    resultDetails,
    ...(AVS_RESPONSES.includes(avs as AvsResponse) ? { avsResponse: avs as AvsResponse } : {}),
    ...(CVV_RESPONSES.includes(cvv as CvvResponse) ? { cvvResponse: cvv as CvvResponse } : {}),
    ...(row.technical ? { notProcessed: true as const } : {}),
    ...(schemeTransactionId ? { schemeTransactionId } : {}),
  };
}
