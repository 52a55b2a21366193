/**
 * The cards the simulated wallet sheet holds: simulator test cards (docs/simulator.md) that the
 * shopper sees only as brand and last four digits. The number never leaves the gateway: the
 * sheet's post names a card by its key, and the gateway seals the number into the wallet's test
 * token itself.
 */
import { randomBytes } from 'node:crypto';
import type { WalletName } from '../../connectors/connector.js';
import { encryptWalletTokenForTests } from '../../connectors/simulator/index.js';

export interface SheetTestCard {
  /** What the sheet's radio button posts. */
  readonly key: string;
  readonly brand: string;
  readonly number: string;
  /** What the simulator answers for it: approved, or declined (row card-declined, 800.100.100). */
  readonly approves: boolean;
}

export const SHEET_TEST_CARDS: readonly SheetTestCard[] = Object.freeze([
  { key: 'visa-0000', brand: 'VISA', number: '4200000000000000', approves: true },
  { key: 'master-5454', brand: 'MASTER', number: '5454545454545454', approves: true },
  { key: 'visa-0002', brand: 'VISA', number: '4000000000000002', approves: false },
]);

/** Years a sheet card is valid ahead of the gateway's clock, so its expiry never runs out. */
const EXPIRY_YEARS_AHEAD = 3;

export function sheetCardOf(key: unknown): SheetTestCard | undefined {
  return SHEET_TEST_CARDS.find((card) => card.key === key);
}

export function lastFour(card: SheetTestCard): string {
  return card.number.slice(-4);
}

/** walletX.paymentToken for the card, under the wallet's test key (a fresh IV each time, as a real wallet's token). */
export function sheetToken(wallet: WalletName, card: SheetTestCard, now: Date): string {
  const expiry = { expiryMonth: '12', expiryYear: String(now.getUTCFullYear() + EXPIRY_YEARS_AHEAD) };
  return encryptWalletTokenForTests(wallet, { number: card.number, ...expiry, eci: '05' }, randomBytes(12));
}
