/**
 * The host's decision table: what it answers, by card and by amount, deterministically. The
 * README of this folder shows the same table; the test of the table checks that they agree.
 * Amount rows come first (they describe the link's behaviour, whatever the card), then card rows;
 * any other card is approved.
 */

/** How the answer travels: on time, late, never (the connection is closed), or twice. */
export type Behaviour = 'normal' | 'slow' | 'drop' | 'duplicate';

export interface DecisionRow {
  readonly match: { readonly amountMinor: bigint } | { readonly pan: string };
  /** Field 39 of the answer; null: the answer has no field 39. */
  readonly responseCode: string | null;
  /** The host books the payment as approved although field 39 is not `00` (money moved under another code). */
  readonly booked?: true;
  /** The host approves and answers (field 4) this amount instead of the request's. */
  readonly answeredAmountMinor?: bigint;
  readonly behaviour: Behaviour;
  /** The settlement file adds a chargeback of the payment. */
  readonly chargeback?: true;
  /** A decline's merchant advice code (field 48 MAC=): 01 new account information, 02 try again later, 03 do not try again. */
  readonly merchantAdvice?: string;
  readonly meaning: string;
}

export const DECISION_TABLE: readonly DecisionRow[] = [
  { match: { amountMinor: 66601n }, responseCode: '00', behaviour: 'slow', meaning: 'approved and booked, but answered only after the slow delay (a timeout for the gateway)' },
  { match: { amountMinor: 66602n }, responseCode: '00', behaviour: 'drop', meaning: 'approved and booked, then the connection is closed without an answer' },
  { match: { amountMinor: 66603n }, responseCode: '00', behaviour: 'duplicate', meaning: 'approved, and the answer is sent twice' },
  { match: { amountMinor: 66604n }, responseCode: '91', behaviour: 'normal', meaning: 'issuer inoperative: nothing booked' },
  { match: { amountMinor: 66605n }, responseCode: '51', behaviour: 'normal', merchantAdvice: '02', meaning: 'insufficient funds; merchant advice 02 (try again later)' },
  { match: { amountMinor: 66606n }, responseCode: '10', behaviour: 'normal', booked: true, answeredAmountMinor: 33301n, meaning: 'partial approval: 333.01 booked and answered in field 4' },
  { match: { amountMinor: 66607n }, responseCode: '7Q', behaviour: 'normal', booked: true, meaning: 'a code no table knows, booked as approved' },
  { match: { amountMinor: 66608n }, responseCode: null, behaviour: 'normal', booked: true, meaning: 'no field 39 in the answer, booked as approved' },
  { match: { amountMinor: 66609n }, responseCode: '00', behaviour: 'normal', answeredAmountMinor: 60000n, meaning: 'approved for 600.00: booked and answered in field 4' },
  { match: { pan: '4000000000000002' }, responseCode: '05', behaviour: 'normal', meaning: 'do not honour' },
  { match: { pan: '4000000000009995' }, responseCode: '51', behaviour: 'normal', merchantAdvice: '02', meaning: 'insufficient funds; merchant advice 02 (try again later)' },
  { match: { pan: '4000000000000069' }, responseCode: '54', behaviour: 'normal', merchantAdvice: '01', meaning: 'expired card; merchant advice 01 (new account information)' },
  { match: { pan: '4000000000000044' }, responseCode: '62', behaviour: 'normal', merchantAdvice: '03', meaning: 'restricted card; merchant advice 03 (do not try again)' },
  { match: { pan: '4000000000000119' }, responseCode: '96', behaviour: 'normal', meaning: 'system malfunction: nothing booked' },
  { match: { pan: '4000000000000127' }, responseCode: 'N7', behaviour: 'normal', meaning: 'CVV2 failure' },
  { match: { pan: '4000000000000259' }, responseCode: '00', behaviour: 'normal', chargeback: true, meaning: 'approved; the settlement file of its day carries a chargeback' },
];

export const APPROVED: DecisionRow = { match: { amountMinor: -1n }, responseCode: '00', behaviour: 'normal', meaning: 'any other card and amount: approved' };

/** The row of a request: amount rows first, then the card. Referencing messages (no PAN) only match amount rows. */
export function decide(amountMinor: bigint, pan: string | undefined): DecisionRow {
  const byAmount = DECISION_TABLE.find((row) => 'amountMinor' in row.match && row.match.amountMinor === amountMinor);
  if (byAmount) return byAmount;
  return DECISION_TABLE.find((row) => 'pan' in row.match && row.match.pan === pan) ?? APPROVED;
}

/** Field 44 of an answer: AVS result then CVV result (the gateway's letters). */
export function verificationResults(postcodeSent: boolean, cvv: string | undefined): string {
  const avs = postcodeSent ? 'Z' : 'U';
  const cvvResult = cvv === undefined ? 'P' : cvv === '000' ? 'N' : 'M';
  return `${avs}${cvvResult}`;
}
