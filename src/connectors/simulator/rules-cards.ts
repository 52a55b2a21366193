import { isExpired } from './input.js';
import { encryptWalletTokenForTests } from './wallet-token.js';
import { INITIAL, approved, declined, sampleCard, type SimulatorExample, type SimulatorRow } from './row.js';

/** Cards whose number alone decides the decline: [row id, number, code, AcquirerResponse, text]. */
const DECLINING_CARDS: ReadonlyArray<readonly [string, string, string, string, string]> = [
  ['card-declined', '4000000000000002', '800.100.100', '05', 'Do not honour'],
  ['card-insufficient-funds', '4000000000009995', '800.100.203', '51', 'Insufficient funds'],
  ['card-wrong-expiry', '4000000000000069', '800.100.157', '54', 'Expired card'],
  ['card-invalid', '4000000000000010', '800.100.151', '14', 'Invalid card number'],
  ['card-lost', '4000000000009987', '800.100.165', '41', 'Lost card, pick up'],
  ['card-stolen', '4000000000009979', '800.100.159', '43', 'Stolen card, pick up'],
  ['card-fraud-suspected', '4100000000000019', '800.100.158', '59', 'Suspected fraud'],
  ['card-limit-exceeded', '4000000000000036', '800.100.162', '61', 'Exceeds withdrawal amount limit'],
  ['card-not-permitted', '4000000000000044', '800.100.170', '57', 'Transaction not permitted to cardholder'],
  ['card-pick-up', '4000000000000051', '800.100.171', '04', 'Pick up card (no fraud)'],
  ['card-restricted', '4000000000000077', '800.100.168', '62', 'Restricted card'],
];

/** The test cards of compatibility.md: all succeed for plain payments (3DS outcomes belong to 3DS). */
export const COMPATIBILITY_TEST_CARDS: readonly string[] = [
  '4200000000000000', '5454545454545454', '377777777777770',
  '4200000000000091', '4200000000000109', '4200000000000026', '4200000000000059', '5200000000000007', '5200000000000023',
  '4200000000000042', '4200000000000067', '4200000000000018', '4200000000000075',
  '4012001037461114', '4012001037141112', '4532497088771651',
];

const TOKEN_EXPIRY = { expiryMonth: '05', expiryYear: '2034' } as const;

/** The same card number reached through every card-like method: the number rows apply to all. */
function everyCardLikeMethod(number: string): SimulatorExample[] {
  return [
    { operation: 'PA', method: sampleCard(number) },
    { operation: 'DB', method: { kind: 'tokenAccount', token: { number, type: 'NETWORK', ...TOKEN_EXPIRY, cryptogram: 'AgAAAAAAAIR8CQrXcIhbQAAAAAA=' } } },
    { operation: 'CD', method: { kind: 'walletDecrypted', wallet: 'walletB', source: 'app', card: { number, ...TOKEN_EXPIRY }, eci: '05', verificationId: 'AAACAgSRBklmQCFgMpEGAAAAAAA=' } },
    { operation: 'DB', method: { kind: 'walletToken', wallet: 'walletA', paymentToken: encryptWalletTokenForTests('walletA', { number, ...TOKEN_EXPIRY, eci: '05' }) } },
  ];
}

const declinesByNumber: SimulatorRow[] = DECLINING_CARDS.map(([id, number, code, acquirerResponse, text], index) => ({
  id,
  operations: INITIAL,
  input: `card number ${number}`,
  matches: (input) => input.pan === number,
  outcome: declined(code, acquirerResponse, text),
  lettersFromTables: true,
  examples: index === 0 ? everyCardLikeMethod(number) : [{ operation: 'PA', method: sampleCard(number) }],
}));

export const CARD_ROWS: readonly SimulatorRow[] = [
  {
    id: 'card-expired',
    operations: INITIAL,
    input: 'any card number whose expiry month lies before the current month (gateway clock, UTC), e.g. a wallet token',
    matches: (input) => input.pan !== null && isExpired(input.expiry, input.now),
    outcome: declined('800.100.157', '54', 'Expired card'),
    lettersFromTables: true,
    examples: [
      { operation: 'PA', method: sampleCard('4200000000000000', { expiryMonth: '10', expiryYear: '2026' }) },
      { operation: 'DB', method: { kind: 'walletToken', wallet: 'walletC', paymentToken: encryptWalletTokenForTests('walletC', { number: '4200000000000000', expiryMonth: '01', expiryYear: '2020' }) } },
    ],
  },
  {
    id: 'token-unknown',
    operations: INITIAL,
    input: 'tokenAccount.number 999999999999 (a token the provider does not know)',
    matches: (input) => input.method === 'tokenAccount' && input.pan === '999999999999',
    outcome: declined('800.100.151', '14', 'Unknown token'),
    lettersFromTables: false,
    examples: [{ operation: 'PA', method: { kind: 'tokenAccount', token: { number: '999999999999', type: 'EXTERNAL' } } }],
  },
  ...declinesByNumber,
  {
    id: 'card-invalid-cvv',
    operations: INITIAL,
    input: 'card number 4000000000000101, or card.cvv 999 with any card',
    matches: (input) => input.pan === '4000000000000101' || (input.pan !== null && input.cvv === '999'),
    outcome: declined('800.100.153', 'N7', 'CVV2 failure', { cvvResponse: 'N' }),
    lettersFromTables: true,
    examples: [
      { operation: 'PA', method: sampleCard('4000000000000101') },
      { operation: 'DB', method: sampleCard('5454545454545454', { cvv: '999' }) },
    ],
  },
  {
    id: 'card-avs-failed',
    operations: INITIAL,
    input: 'billing.postcode 00009 with any card',
    matches: (input) => input.pan !== null && input.postcode === '00009',
    outcome: declined('800.400.100', '05', 'Address verification failed', { avsResponse: 'N' }),
    lettersFromTables: true,
    examples: [{ operation: 'PA', method: sampleCard('4200000000000000'), postcode: '00009' }],
  },
  {
    id: 'card-approved',
    operations: INITIAL,
    input: 'any other card number: card, token account, decrypted wallet or wallet token (all test cards of compatibility.md)',
    matches: (input) => input.pan !== null,
    outcome: approved('Approved'),
    lettersFromTables: true,
    examples: [
      ...COMPATIBILITY_TEST_CARDS.map((number): SimulatorExample => ({
        operation: 'DB',
        method: sampleCard(number, number.startsWith('37') ? { cvv: '1234' } : {}),
      })),
      ...everyCardLikeMethod('4200000000000000'),
      { operation: 'PA', method: sampleCard('4200000000000000'), postcode: '00001' },
      { operation: 'PA', method: sampleCard('4200000000000000', { cvv: '998' }) },
    ],
  },
];
