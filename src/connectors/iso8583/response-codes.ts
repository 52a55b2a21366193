import type { OutcomeKind } from '../connector.js';

/** What an acquirer's field 39 means for the gateway: the outcome and its catalogue code. */
export interface ResponseCodeRow {
  readonly kind: Exclude<OutcomeKind, 'pending' | 'unknown'>;
  /** A catalogue code; for success, null means the route's success code (000.000.000 live, 000.100.112 on the test platform). */
  readonly code: string | null;
  /** The host could not process the request at all (nothing approved): another route may be tried. */
  readonly technical?: true;
}

const ok: ResponseCodeRow = { kind: 'success', code: null };
const no = (code: string): ResponseCodeRow => ({ kind: 'declined', code });
/** The host or issuer could not process it: declined, and a fallback route may try again. */
const down = (code: string): ResponseCodeRow => ({ kind: 'declined', code, technical: true });

/**
 * Field 39 of the 1987 standard as most acquirers use it, to the result catalogue. A profile may
 * replace rows (profiles.ts); a code in neither table is answered as 900.100.200 "error response
 * from connector/acquirer", declined (an acquirer that answered with a code did not approve).
 */
export const ISO8583_RESPONSE_CODES: Readonly<Record<string, ResponseCodeRow>> = Object.freeze({
  '00': ok,
  '08': ok, // honour with identification
  '01': no('800.100.200'), // refer to card issuer
  '03': no('800.100.164'), // invalid merchant
  '04': no('800.100.171'), // pick up card
  '05': no('800.100.152'), // do not honour
  '12': no('800.100.154'), // invalid transaction
  '13': no('800.100.174'), // invalid amount
  '14': no('800.100.151'), // invalid card number
  '25': no('800.100.167'), // unable to locate original
  '30': no('800.100.156'), // format error
  '41': no('800.100.165'), // lost card
  '43': no('800.100.159'), // stolen card
  '51': no('800.100.203'), // insufficient funds
  '54': no('800.100.157'), // expired card
  '55': no('800.100.166'), // incorrect PIN
  '57': no('800.100.170'), // not permitted to cardholder
  '58': no('800.100.170'), // not permitted to terminal
  '59': no('800.100.158'), // suspected fraud
  '61': no('800.100.162'), // exceeds withdrawal amount limit
  '62': no('800.100.168'), // restricted card
  '65': no('800.100.163'), // exceeds withdrawal frequency
  '75': no('800.100.161'), // PIN tries exceeded
  '78': no('800.100.172'), // blocked, first used
  'N7': no('800.100.153'), // CVV2 failure
  '91': down('900.100.400'), // issuer or switch inoperative
  '96': down('900.100.201'), // system malfunction
});

/** The catalogue meaning of field 39, with the profile's own rows first. */
export function responseCodeRow(field39: string, overrides: Readonly<Record<string, ResponseCodeRow>> = {}): ResponseCodeRow {
  return overrides[field39] ?? ISO8583_RESPONSE_CODES[field39] ?? no('900.100.200');
}
