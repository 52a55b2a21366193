import type { SimulatorInput } from './input.js';
import { CARD_ROWS } from './rules-cards.js';
import { INITIAL, REFERENCING, approved, declined, sampleCard, type RowOutcome, type SimulatorRow } from './row.js';
import { encryptWalletTokenForTests } from './wallet-token.js';

const VISA = sampleCard('4200000000000000');
const TEST_IBAN = 'DE23100000001234567890';
const SEPA = (iban: string) => ({ kind: 'bankAccount', bankAccount: { holder: 'Jane Jones', iban, bic: 'MARKDEF1100' } }) as const;

/** The acquirer did not answer in time: the gateway stores pending and asks again later (status.ts). */
const NO_ANSWER: RowOutcome = { kind: 'unknown', code: '900.100.300', acquirerResponse: '91', extendedDescription: 'No answer from the acquirer in time' };

/** Rows every method and the referencing operations share: amounts and references. */
const GENERAL_ROWS: readonly SimulatorRow[] = [
  {
    id: 'foreign-parent',
    operations: REFERENCING,
    input: 'parent whose ConnectorTxID1 this connector did not issue',
    matches: (input) => input.parentReference === 'foreign',
    outcome: declined('800.100.167', '12', 'Original transaction not found'),
    lettersFromTables: false,
    examples: [{ operation: 'CP', foreignParent: true }, { operation: 'RV', foreignParent: true }],
  },
  {
    id: 'timeout',
    operations: ['PA', 'DB', 'CD', 'CP', 'RF'],
    input: 'amount 9.99 (999 minor units)',
    matches: (input) => input.amountMinor === 999n,
    outcome: NO_ANSWER,
    lettersFromTables: false,
    examples: [{ operation: 'PA', amountMinor: 999n }, { operation: 'DB', amountMinor: 999n, method: SEPA(TEST_IBAN) }, { operation: 'CP', amountMinor: 999n }],
  },
  {
    id: 'timeout-later-declined',
    operations: ['PA', 'DB', 'CD', 'CP', 'RF'],
    input: 'amount 9.98 (998 minor units): no answer in time; the status query later says declined',
    matches: (input) => input.amountMinor === 998n,
    outcome: NO_ANSWER,
    lettersFromTables: false,
    examples: [{ operation: 'DB', amountMinor: 998n }, { operation: 'RF', amountMinor: 998n }],
  },
  {
    id: 'timeout-never-resolved',
    operations: ['PA', 'DB', 'CD', 'CP', 'RF'],
    input: 'amount 9.97 (997 minor units): no answer in time, and the status query never knows',
    matches: (input) => input.amountMinor === 997n,
    outcome: NO_ANSWER,
    lettersFromTables: false,
    examples: [{ operation: 'PA', amountMinor: 997n }],
  },
  {
    id: 'reversal-timeout',
    operations: ['RV'],
    input: 'reversal of an amount of 7.09 (709 minor units)',
    matches: (input) => input.amountMinor === 709n,
    outcome: NO_ANSWER,
    lettersFromTables: false,
    examples: [{ operation: 'RV', amountMinor: 709n }],
  },
  {
    id: 'reversal-declined',
    operations: ['RV'],
    input: 'reversal of an amount of 7.07 (707 minor units)',
    matches: (input) => input.amountMinor === 707n,
    outcome: declined('800.100.191', '12', 'Original already cleared'),
    lettersFromTables: false,
    examples: [{ operation: 'RV', amountMinor: 707n }],
  },
  {
    id: 'amount-declined',
    operations: ['PA', 'DB', 'CD', 'CP', 'RF'],
    input: 'amount 5.05 (505 minor units)',
    matches: (input) => input.amountMinor === 505n,
    outcome: declined('800.100.152', '05', 'Declined by the authorisation system'),
    lettersFromTables: false,
    examples: [{ operation: 'PA', amountMinor: 505n }, { operation: 'CD', amountMinor: 505n, method: { kind: 'virtualAccount', accountId: 'jane@example.com' } }, { operation: 'RF', amountMinor: 505n }],
  },
  {
    id: 'amount-insufficient-funds',
    operations: INITIAL,
    input: 'amount 5.06 (506 minor units), any payment method',
    matches: (input) => input.amountMinor === 506n,
    outcome: declined('800.100.203', '51', 'Insufficient funds'),
    lettersFromTables: false,
    examples: [{ operation: 'DB', amountMinor: 506n, method: SEPA(TEST_IBAN) }, { operation: 'PA', amountMinor: 506n, method: VISA }],
  },
  {
    id: 'referencing-approved',
    operations: REFERENCING,
    input: 'any other capture, refund or reversal',
    matches: () => true,
    outcome: approved('Approved'),
    lettersFromTables: false,
    examples: [{ operation: 'CP' }, { operation: 'RF' }, { operation: 'RV' }],
  },
  {
    id: 'mit-reference-unknown',
    operations: INITIAL,
    input: 'standingInstruction.source=MIT with an initialTransactionId this simulator did not issue',
    matches: (input) => input.mitReference === 'not-issued',
    outcome: declined('800.100.167', '12', 'Unknown initial transaction'),
    lettersFromTables: false,
    examples: [{ operation: 'DB', standingInstruction: { type: 'UNSCHEDULED', mode: 'REPEATED', source: 'MIT', initialTransactionId: 'VISA0123456789' } }],
  },
  {
    id: 'wallet-token-unreadable',
    operations: INITIAL,
    input: 'walletX.paymentToken that does not decrypt with the wallet\'s test key',
    matches: (input) => input.walletToken !== null && input.walletToken !== 'valid',
    outcome: declined('800.100.156', '30', 'Payment token cannot be decrypted'),
    lettersFromTables: false,
    examples: [
      { operation: 'PA', method: { kind: 'walletToken', wallet: 'walletA', paymentToken: 'bm90IGEgdG9rZW4=' } },
      { operation: 'PA', method: { kind: 'walletToken', wallet: 'walletA', paymentToken: encryptWalletTokenForTests('walletB', { number: '4200000000000000', expiryMonth: '05', expiryYear: '2034' }) } },
    ],
  },
];

/** Rows of bank and virtual accounts. */
const ACCOUNT_ROWS: readonly SimulatorRow[] = [
  {
    id: 'iban-account-closed',
    operations: INITIAL,
    input: 'bankAccount.iban DE93100000000000000003',
    matches: (input) => input.iban === 'DE93100000000000000003',
    outcome: declined('800.100.202', 'AC04', 'Closed account number'),
    lettersFromTables: false,
    examples: [{ operation: 'DB', method: SEPA('DE93100000000000000003') }],
  },
  {
    id: 'iban-details-incorrect',
    operations: INITIAL,
    input: 'bankAccount.iban DE66100000000000000004',
    matches: (input) => input.iban === 'DE66100000000000000004',
    outcome: declined('800.100.201', 'AC01', 'Incorrect account number'),
    lettersFromTables: false,
    examples: [{ operation: 'CD', method: SEPA('DE66100000000000000004') }],
  },
  {
    id: 'bank-account-approved',
    operations: INITIAL,
    input: `any other bank account, e.g. the test IBAN ${TEST_IBAN}`,
    matches: (input) => input.method === 'bankAccount',
    outcome: approved('Accepted for clearing'),
    lettersFromTables: false,
    examples: [
      { operation: 'DB', method: SEPA(TEST_IBAN) },
      { operation: 'PA', method: { kind: 'bankAccount', bankAccount: { holder: 'Jane Jones', number: '1234567890', bankCode: '10000000', country: 'DE' } } },
    ],
  },
  {
    id: 'virtual-account-unknown',
    operations: INITIAL,
    input: 'virtualAccount.accountId unknown-account',
    matches: (input) => input.virtualAccountId === 'unknown-account',
    outcome: declined('800.100.195', 'ACCOUNT_UNKNOWN', 'Account id unknown'),
    lettersFromTables: false,
    examples: [{ operation: 'DB', method: { kind: 'virtualAccount', accountId: 'unknown-account' } }],
  },
  {
    id: 'virtual-account-approved',
    operations: INITIAL,
    input: 'any other virtualAccount.accountId',
    matches: (input) => input.method === 'virtualAccount',
    outcome: approved('Approved'),
    lettersFromTables: false,
    examples: [{ operation: 'DB', method: { kind: 'virtualAccount', accountId: 'jane@example.com' } }],
  },
];

/** The simulator's whole table in precedence order; docs/simulator.md is generated from it. */
export const SIMULATOR_ROWS: readonly SimulatorRow[] = [...GENERAL_ROWS, ...CARD_ROWS, ...ACCOUNT_ROWS];

/** The deciding row; undefined only if the table has a gap, which the tests rule out. */
export function matchSimulatorRow(input: SimulatorInput): SimulatorRow | undefined {
  return SIMULATOR_ROWS.find((row) => row.operations.includes(input.operation) && row.matches(input));
}
