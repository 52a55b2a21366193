import { defineRows } from '../define.js';
import { chars, decimal, multilineText, pattern, text } from '../formats.js';
import { dateTime } from '../formats-time.js';
import { WRITE_ENDPOINTS, optional } from '../use.js';
import type { Endpoint, ParameterRow } from '../types.js';

/** Core: custom parameters, risk, chargeback. */

/** The key format of every name/value map of the spec: a-z A-Z 0-9 . _, 3 to 64. */
export function mapKey(sample: string) {
  return chars('a-zA-Z0-9._', 64, 3, 'AN64, a-z A-Z 0-9 . _, 3 to 64', sample);
}

const RISK: readonly Endpoint[] = ['payment', 'registration', 'registrationPayment', 'checkout'];

const custom = defineRows({ section: 'Custom parameters', use: optional(WRITE_ENDPOINTS) }, [
  ['customParameters[name]', multilineText(2048, 0, 'AN2048, 0 to 2048, line breaks allowed'), {
    keyFormat: mapKey('SHOPPER_orderNote'),
    description: 'Echoed back. Names sent from the widget must start with SHOPPER_.',
  }],
]);

const risk = defineRows({ section: 'Risk', use: optional(RISK) }, [
  ['risk.channelId', text(255)],
  ['risk.serviceId', text(255), { sample: 'S' }],
  ['risk.amount', decimal(10, true), { code: '100.550.603', description: 'Echoed, and the amount a 3-D Secure authentication covers when threeDSecure.amount is absent. No risk rule counts it: they count the payment\'s own amount (docs/risk.md).' }],
  ['risk.orderTimestamp', dateTime(), { description: 'Defaults to the time set by the system.' }],
  ['risk.brand', text(255), { sample: 'VISA' }],
  ['risk.parameters[name]', multilineText(2048), { keyFormat: mapKey('USER_DATA1') }],
  ['risk.merchantWebsite', text(60), { sample: 'shop.example.com' }],
  ['risk.accountToken', text(64), { secret: 'full', sample: 'risk-account-token-17' }],
]);

const chargeback = defineRows({ section: 'Chargeback', use: optional(['payment']) }, [
  ['chargebackResultCode', pattern('^000\\.100\\.2[0-9]{2}$', { notation: 'form 000.100.2nn', min: 11, max: 11, sample: '000.100.201', bad: '000.100.301' }), {
    echo: false,
    description: 'Lets the test system raise a chargeback with this reason on the payment later.',
  }],
]);

export const customAndRiskRows: readonly ParameterRow[] = [...custom, ...risk, ...chargeback];
