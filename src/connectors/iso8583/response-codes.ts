/**
 * What the gateway makes of an answer's field 39:
 * - `approved`: success (when field 4 agrees with the request's amount, outcome.ts);
 * - `declined`: the issuer refused, nothing moved;
 * - `technical`: the host could not process it at all, nothing moved; another route may be tried;
 * - `reverse`: money may have moved but not as asked (a partial approval, a code no table knows,
 *   no field 39): the connector sends a reversal advice and answers a rejection.
 */
export type AnswerVerdict = 'approved' | 'declined' | 'technical' | 'reverse';

/** One row of the field 39 table: the verdict, its catalogue code and what the code says. */
export interface ResponseCodeRow {
  readonly verdict: AnswerVerdict;
  /** A catalogue code; for `approved`, null means the route's success code (000.000.000 live, 000.100.112 on the test platform). */
  readonly code: string | null;
  readonly meaning: string;
}

const ok = (meaning: string): ResponseCodeRow => ({ verdict: 'approved', code: null, meaning });
const no = (code: string, meaning: string): ResponseCodeRow => ({ verdict: 'declined', code, meaning });
const down = (code: string, meaning: string): ResponseCodeRow => ({ verdict: 'technical', code, meaning });
const reverse = (meaning: string): ResponseCodeRow => ({ verdict: 'reverse', code: UNREADABLE_ANSWER_CODE, meaning });

/** "error response from connector/acquirer": the rejection of an answer the gateway cannot book as it is. */
export const UNREADABLE_ANSWER_CODE = '900.100.200';

/**
 * Field 39 of the 1987 standard as most acquirers use it, to the result catalogue. A profile may
 * replace rows (profile.ts). docs/connectors.md shows this table; a test keeps the two in step.
 */
export const ISO8583_RESPONSE_CODES: Readonly<Record<string, ResponseCodeRow>> = Object.freeze({
  '00': ok('approved'),
  '08': ok('honour with identification'),
  '11': ok('approved (VIP)'),
  '10': reverse('partial approval: the gateway books whole amounts only'),
  '01': no('800.100.200', 'refer to card issuer'),
  '03': no('800.100.164', 'invalid merchant'),
  '04': no('800.100.171', 'pick up card'),
  '05': no('800.100.152', 'do not honour'),
  '12': no('800.100.154', 'invalid transaction'),
  '13': no('800.100.174', 'invalid amount'),
  '14': no('800.100.151', 'invalid card number'),
  '25': no('800.100.167', 'unable to locate original'),
  '30': no('800.100.156', 'format error'),
  '41': no('800.100.165', 'lost card'),
  '43': no('800.100.159', 'stolen card'),
  '51': no('800.100.203', 'insufficient funds'),
  '54': no('800.100.157', 'expired card'),
  '55': no('800.100.166', 'incorrect PIN'),
  '57': no('800.100.170', 'not permitted to cardholder'),
  '58': no('800.100.170', 'not permitted to terminal'),
  '59': no('800.100.158', 'suspected fraud'),
  '61': no('800.100.162', 'exceeds withdrawal amount limit'),
  '62': no('800.100.168', 'restricted card'),
  '65': no('800.100.163', 'exceeds withdrawal frequency'),
  '75': no('800.100.161', 'PIN tries exceeded'),
  '78': no('800.100.172', 'blocked, first used'),
  'N7': no('800.100.153', 'CVV2 failure'),
  '91': down('900.100.400', 'issuer or switch inoperative'),
  '96': down('900.100.201', 'system malfunction'),
});

/** A code in neither the profile's rows nor the standard table: the host may have approved under it. */
export const UNKNOWN_CODE_ROW: ResponseCodeRow = reverse('any other code: money may have moved');
/** An answer without field 39 says nothing about what the host did. */
export const NO_CODE_ROW: ResponseCodeRow = reverse('no field 39: money may have moved');
/** An approval for another amount than the request's (field 4): not the payment that was asked for. */
export const OTHER_AMOUNT_ROW: ResponseCodeRow = reverse('approved, but field 4 differs from the request\'s amount');

/** The row of field 39, with the profile's own rows first. */
export function responseCodeRow(field39: string | undefined, overrides: Readonly<Record<string, ResponseCodeRow>> = {}): ResponseCodeRow {
  if (field39 === undefined || field39.trim() === '') return NO_CODE_ROW;
  return overrides[field39] ?? ISO8583_RESPONSE_CODES[field39] ?? UNKNOWN_CODE_ROW;
}
