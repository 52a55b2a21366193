/**
 * The wallet buttons' texts in the widget's 25 languages (a module of their own, beside keys.ts):
 * the button's name ("Pay with walletA"), the simulated sheet's dialog title and the name of the
 * group of wallet buttons. `{wallet}` is the wallet's neutral name (walletA …), never translated.
 */
import type { WidgetLocale } from '../rules/locale.js';

export interface WalletTexts {
  /** The button: "Pay with {wallet}". */
  readonly pay: string;
  /** The dialog holding the simulated sheet. */
  readonly sheet: string;
  /** The group of the wallet buttons. */
  readonly group: string;
}

/** [pay, sheet, group] per language: tuples keep the script small. */
const TEXTS: Readonly<Record<WidgetLocale, readonly [string, string, string]>> = {
  en: ['Pay with {wallet}', '{wallet}, simulated', 'Wallets'],
  de: ['Mit {wallet} bezahlen', '{wallet}, simuliert', 'Wallets'],
  fr: ['Payer avec {wallet}', '{wallet}, simulé', 'Portefeuilles'],
  es: ['Pagar con {wallet}', '{wallet}, simulado', 'Monederos'],
  it: ['Paga con {wallet}', '{wallet}, simulato', 'Wallet'],
  nl: ['Betalen met {wallet}', '{wallet}, gesimuleerd', 'Wallets'],
  dk: ['Betal med {wallet}', '{wallet}, simuleret', 'Tegnebøger'],
  fi: ['Maksa palvelulla {wallet}', '{wallet}, simuloitu', 'Lompakot'],
  se: ['Betala med {wallet}', '{wallet}, simulerad', 'Plånböcker'],
  tr: ['{wallet} ile öde', '{wallet}, simülasyon', 'Cüzdanlar'],
  ja: ['{wallet}で支払う', '{wallet}（シミュレーション）', 'ウォレット'],
  sl: ['Plačaj z {wallet}', '{wallet}, simulirano', 'Denarnice'],
  pt: ['Pagar com {wallet}', '{wallet}, simulado', 'Carteiras'],
  pl: ['Zapłać przez {wallet}', '{wallet}, symulacja', 'Portfele'],
  cz: ['Zaplatit přes {wallet}', '{wallet}, simulace', 'Peněženky'],
  hu: ['Fizetés ezzel: {wallet}', '{wallet}, szimulált', 'Pénztárcák'],
  bg: ['Плащане с {wallet}', '{wallet}, симулация', 'Портфейли'],
  ro: ['Plătește cu {wallet}', '{wallet}, simulat', 'Portofele'],
  ru: ['Оплатить через {wallet}', '{wallet}, симуляция', 'Кошельки'],
  cn: ['使用 {wallet} 支付', '{wallet}（模拟）', '钱包'],
  gr: ['Πληρωμή με {wallet}', '{wallet}, προσομοίωση', 'Πορτοφόλια'],
  no: ['Betal med {wallet}', '{wallet}, simulert', 'Lommebøker'],
  sk: ['Zaplatiť cez {wallet}', '{wallet}, simulácia', 'Peňaženky'],
  ar: ['الدفع باستخدام {wallet}', '{wallet}، محاكاة', 'المحافظ'],
  ko: ['{wallet}(으)로 결제', '{wallet} (시뮬레이션)', '지갑'],
};

export function walletTextsOf(locale: WidgetLocale): WalletTexts {
  const [pay, sheet, group] = TEXTS[locale] ?? TEXTS.en;
  return { pay, sheet, group };
}

/** A text with the wallet's name put in. */
export function withWallet(text: string, wallet: string): string {
  return text.replace('{wallet}', wallet);
}
