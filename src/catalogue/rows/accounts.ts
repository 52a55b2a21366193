import { defineRows, sameFormat, type RowSpec } from '../define.js';
import { digits, multilineText, oneOf, pattern, text } from '../formats.js';
import { ACCOUNT_DATA, combine, conditional, optional } from '../use.js';
import type { ParameterRow } from '../types.js';

/** Core: card account, mobile wallets, virtual account, token account. */

const card = defineRows({ section: 'Card account', use: conditional(ACCOUNT_DATA) }, [
  ['card.holder', text(128, 3), {
    use: optional([...ACCOUNT_DATA, 'registrationPayment']),
    code: '100.100.401',
    sample: 'Jane Jones',
  }],
  ['card.number', digits(32, 8, 'N32, 8 to 32 digits', '4200000000000000'), {
    requiredWithin: 'card.',
    secret: 'pan',
    code: '100.100.101',
    missingCode: '100.100.100',
    invalidSample: '4200 0000 0000 0000',
  }],
  ['card.expiryMonth', pattern('^(0[1-9]|1[0-2])$', { notation: 'N2, 01 to 12', min: 2, max: 2, sample: '05', bad: '13' }), {
    requiredWithin: 'card.',
    code: '100.100.201',
    missingCode: '100.100.200',
  }],
  ['card.expiryYear', pattern('^(19|20)[0-9]{2}$', { notation: 'N4, begins 19 or 20', min: 4, max: 4, sample: '2034', bad: '34' }), {
    requiredWithin: 'card.',
    code: '100.100.301',
    missingCode: '100.100.300',
  }],
  ['card.cvv', pattern('^[0-9]{3,4}$', { notation: 'N4, 3 or 4 digits', min: 3, max: 4, sample: '123', bad: '12a' }), {
    use: combine(conditional(ACCOUNT_DATA), optional(['registrationPayment'])),
    secret: 'full',
    missingCode: '100.100.600',
  }],
  ['card.numberType', oneOf(['PAN', 'DPAN']), { use: optional(ACCOUNT_DATA) }],
]);

function walletRows(wallet: 'walletA' | 'walletB' | 'walletC'): RowSpec[] {
  const specs: RowSpec[] = [
    [`${wallet}.paymentToken`, multilineText(32768, 1, 'as received from the wallet provider'), {
      secret: 'full',
      code: '200.100.602',
      sample: '{"data":"c2FtcGxlIHRva2Vu","version":"EC_v1"}',
    }],
    [`${wallet}.source`, oneOf(['web', 'app']), { description: 'Marks decrypted wallet data sent as card.*.' }],
  ];
  if (wallet === 'walletA') {
    specs.push(...sameFormat('walletA.', ['cardNetwork', 'cardType'], text(64, 1), { use: optional(ACCOUNT_DATA) }));
  }
  return specs;
}

const wallets = defineRows({ section: 'Mobile wallets', use: conditional(ACCOUNT_DATA) }, [
  ...walletRows('walletA'),
  ...walletRows('walletB'),
  ...walletRows('walletC'),
]);

const virtualAccount = defineRows({ section: 'Virtual account', use: conditional(ACCOUNT_DATA), code: '100.210.101' }, [
  ['virtualAccount.accountId', text(100, 1), { requiredWithin: 'virtualAccount.', sample: 'jane.jones@example.com' }],
]);

const TOKEN_ACCOUNT_DATA = ['payment', 'registration'] as const;

const tokenAccount = defineRows({ section: 'Token account', use: optional(TOKEN_ACCOUNT_DATA) }, [
  ['tokenAccount.number', digits(19, 12, 'N19, 12 to 19 digits', '4895370012345678'), {
    requiredWithin: 'tokenAccount.',
    secret: 'pan',
    code: '100.100.101',
    missingCode: '100.100.100',
  }],
  ['tokenAccount.type', oneOf(['NETWORK', 'EXTERNAL']), { requiredWithin: 'tokenAccount.' }],
  ['tokenAccount.expiryMonth', pattern('^(0[1-9]|1[0-2])$', { notation: 'N2, 01 to 12', min: 2, max: 2, sample: '05', bad: '00' }), { code: '100.100.201' }],
  ['tokenAccount.expiryYear', digits(4, 4, 'N4', '2034'), { code: '100.100.301' }],
  ['tokenAccount.cryptogram', pattern('^[A-Za-z0-9+/=]{28,32}$', { notation: 'base64, 28 to 32 characters', min: 28, max: 32, sample: 'AAABBIIFmAAAAAAAAAAAAAAAAAA=', bad: 'not base64!' }), {
    use: conditional(TOKEN_ACCOUNT_DATA),
    secret: 'full',
  }],
  ['tokenAccount.dtvc', pattern('^[0-9]{3,4}$', { notation: 'N4, 3 or 4 digits', min: 3, max: 4, sample: '123', bad: '12' }), {
    use: conditional(TOKEN_ACCOUNT_DATA),
    secret: 'full',
  }],
]);

export const accountRows: readonly ParameterRow[] = [...card, ...wallets, ...virtualAccount, ...tokenAccount];
