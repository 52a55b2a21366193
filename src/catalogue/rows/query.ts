import { defineRows } from '../define.js';
import { bool, oneOf, pattern, text } from '../formats.js';
import { date, dateTime } from '../formats-time.js';
import { optional, required } from '../use.js';
import type { ParameterRow } from '../types.js';

/** Core: query and reporting parameters (query strings of GET requests; never echoed). */

const PAYMENT_TYPES = 'CB CD CR DB CP IV PA RB RC RF RL RV AD IN FI CL CF DR RG RR TE CT DS RS SD AC MD EA RI 3D SA EN ID IC DP CG TG SF IS VD DV AF GK RD TM FT KT AR AL PL FN FZ RE RX FO CS EX SE AU TK TF ER'.split(' ');
const PAYMENT_METHODS = 'DD CT CC WA VA UA OT DC ET NT IV PP OD RM'.split(' ');

/** A comma-separated list of codes, each from the allowed set. */
function codeList(codes: readonly string[], sample: string) {
  const item = `(${codes.join('|')})`;
  return pattern(`^${item}(,${item})*$`, {
    notation: `comma-separated list of ${codes.join(', ')}`,
    min: 2,
    max: codes.length * 3,
    sample,
    bad: 'XX',
    kind: 'list',
  });
}

const queryRows = defineRows({ section: 'Query parameters', use: optional(['query']), echo: false }, [
  ['merchantTransactionId', text(255, 1), { sample: 'order-2034-000017', description: 'Not usable together with a time frame.' }],
  ['limit', pattern('^([1-4][0-9]{2}|500)$', { notation: 'integer 100 to 500', min: 3, max: 3, sample: '100', bad: '99', kind: 'integer' }), {
    description: 'Default 100.',
  }],
  ['date.from', dateTime('2034-05-01 00:00:00'), { description: 'Inclusive; used together with date.to.' }],
  ['date.to', dateTime('2034-05-02 00:00:00'), { description: 'Exclusive; used together with date.from.' }],
  ['paymentTypes', codeList(PAYMENT_TYPES, 'DB,PA')],
  ['paymentMethods', codeList(PAYMENT_METHODS, 'CC,DD')],
  ['includeLinkedTransactions', bool()],
  ['shortId', text(14, 1), { sample: '1234.5678.9012' }],
]);

const reportingRows = defineRows({ section: 'Reporting parameters', use: required(['reporting']), echo: false }, [
  ['date.from', date({ sample: '2034-05-01' })],
  ['date.to', date({ sample: '2034-05-31' })],
  ['sortValue', oneOf(['SettlementTxDate']), { use: optional(['reporting']) }],
  ['sortOrder', oneOf(['ASC', 'DESC', 'asc', 'desc']), { use: optional(['reporting']) }],
  ['pageNo', pattern('^[1-9][0-9]{0,5}$', { notation: 'integer from 1 (compatibility: paged settlement detail)', min: 1, max: 6, sample: '1', bad: '0', kind: 'integer' }), {
    use: optional(['reporting']),
  }],
]);

export const queryRowsAll: readonly ParameterRow[] = [...queryRows, ...reportingRows];
