import { defineRows, sameFormat } from '../define.js';
import { oneOf, pattern, text } from '../formats.js';
import { date } from '../formats-time.js';
import { phone } from '../formats-contact.js';
import { INITIAL_PAYMENTS, optional } from '../use.js';
import type { ParameterRow } from '../types.js';

/** Party and order data: sender (who pays the debt) and recipient (whose debt is paid). */

/** "letters, digits, whitespace" in any script. */
function words(max: number, sample: string) {
  return pattern(`^[\\p{L}\\p{M}\\p{N}\\s]{1,${max}}$`, { notation: `up to ${max} of letters, digits, whitespace`, min: 1, max, sample, bad: 'Jane_Jones' });
}

const country = () => pattern('^[a-zA-Z0-9]{1,3}$', { notation: 'up to 3 alphanumerics', min: 1, max: 3, sample: 'DE', bad: 'GERMANY' });

const sender = defineRows({ section: 'Sender', use: optional(INITIAL_PAYMENTS) }, [
  ['sender.name', words(100, 'Jane Jones')],
  ['sender.givenName', words(50, 'Jane')],
  ['sender.middleName', words(50, 'Mary')],
  ['sender.surname', words(50, 'Jones')],
  ['sender.birthDate', date({ sample: '1970-02-17' }), { code: '800.900.450' }],
  ['sender.accountNumber', text(32), { secret: 'last4', sample: 'DE23100000001234567890' }],
  ['sender.street', text(100), { sample: 'Leopoldstr. 17' }],
  ['sender.city', words(50, 'Munich')],
  ['sender.state', words(50, 'Bavaria')],
  ['sender.country', country()],
  ['sender.postcode', text(30), { sample: '80331' }],
  ['sender.accountNumberType', oneOf(['IBAN', 'OTHER', 'RTN_AND_BANK_ACCOUNT', 'BAN_AND_BIC', 'CARD_ACCOUNT'])],
  ['sender.sourceOfFunds', oneOf(['01', '02', '03', '04', '05', '06', '07', '08', '09'], '01 to 09 (credit, debit, prepaid, cash, …)')],
]);

const recipient = defineRows({ section: 'Recipient', use: optional(INITIAL_PAYMENTS) }, [
  ...sameFormat('recipient.', ['givenName', 'middleName', 'surname'], words(48, 'John')),
  ['recipient.birthDate', date({ sample: '1975-03-01' }), { code: '800.900.450' }],
  ['recipient.phone', phone('+ or a digit, then 7 to 25 of digits, space . ( ) -', { min: 7, max: 25 }, ' .()-'), { code: '800.900.200' }],
  ['recipient.accountNumber', text(32), { secret: 'last4', sample: 'GB29NWBK60161331926819' }],
  ['recipient.street', text(100), { sample: 'Main Street 1' }],
  ['recipient.city', words(50, 'London')],
  ['recipient.state', words(50, 'London')],
  ['recipient.country', country()],
  ['recipient.postcode', text(30), { sample: 'SW1A 1AA' }],
  ['recipient.accountNumberType', oneOf(['IBAN', 'OTHER', 'RTN_AND_BANK_ACCOUNT', 'EMAIL', 'PHONE_NUMBER', 'BAN_AND_BIC', 'WALLET_ID', 'SOCIAL_NETWORK_ID'])],
]);

export const partyRows: readonly ParameterRow[] = [...sender, ...recipient];
