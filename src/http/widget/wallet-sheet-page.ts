/**
 * The simulated wallet sheet (docs/widget.md, "Wallets on the test system"): the page the widget
 * shows in its dialog when the shopper presses a wallet button on the test system, and its last
 * page, which hands the payment's outcome to the widget. Both look like the simulator's other
 * pages (the test banner, the same style sheet under a nonce). The sheet has no script at all:
 * the shopper's choice is a form post to the gateway. The last page loads one small script of
 * the gateway's (wallet-sheet-script.ts) by nonce. Only the result page's origin may frame them.
 * Opened in a popup or the whole window instead (wallet-sheet-window.ts), the sheet carries its
 * window in hidden fields; in the whole window it has no last page (the post ends on the shop).
 */
import { escapeHtml, formatAmount, MESSAGES, pickLocale, type PageMessages } from '../../connectors/simulator/pages/index.js';
import { fill } from '../../connectors/simulator/pages/html.js';
import { renderDocument } from '../../connectors/simulator/pages/layout.js';
import type { WalletSheet } from '../../operations/checkouts/open-wallet-sheet.js';
import { lastFour, SHEET_TEST_CARDS } from './wallet-sheet-cards.js';
import { WALLET_SHEET_MESSAGES, type WalletSheetMessages } from './wallet-sheet-messages.js';
import { WALLET_SHEET_SCRIPT_VERSION } from './wallet-sheet-script.js';
import { sheetWindowFields, type SheetWindow } from './wallet-sheet-window.js';

/** The message the widget waits for (widget/src/dom/wallet-sheet.ts). */
export const WALLET_MESSAGE_TYPE = 'wallet';

const SHEET_STYLE = [
  '.cards{display:flex;flex-direction:column;gap:.5rem;margin:0 0 1.25rem}',
  '.cards label{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .75rem;min-height:2.75rem;padding:.5rem .75rem;border:1px solid #98a2b3;border-radius:.5rem;cursor:pointer}',
  '.cards label:has(input:checked){border-color:#0b5cd5;box-shadow:0 0 0 1px #0b5cd5}',
  '.cards input{width:1.25rem;height:1.25rem;margin:0;accent-color:#0b5cd5}',
  '.cards input:focus-visible{outline:3px solid #1a1a1a;outline-offset:3px}',
  '.cards .card{white-space:nowrap}',
  '.cards .note{margin-inline-start:auto;color:#475467;font-size:.95rem}',
  '.wallet{font-variant-numeric:tabular-nums}',
].join('');

export interface SheetTexts {
  readonly locale: string;
  readonly page: PageMessages;
  readonly sheet: WalletSheetMessages;
}

/** The sheet's language: the widget's (lang=), else the browser's; one of the simulator pages' six, else English. */
export function sheetTexts(requested: unknown, acceptLanguage: string | undefined): SheetTexts {
  const locale = pickLocale(typeof requested === 'string' ? requested : undefined, acceptLanguage);
  const known = locale as keyof typeof MESSAGES;
  return { locale, page: MESSAGES[known] ?? MESSAGES.en, sheet: WALLET_SHEET_MESSAGES[known] ?? WALLET_SHEET_MESSAGES.en };
}

/**
 * The sheet: no script; its form posts back to the gateway ('self'). In the whole window the
 * post's 303 leads to the result page, and form-action covers that redirect too (as on the
 * simulator's provider pages, routes/redirects.ts).
 */
export function walletSheetPolicy(nonce: string, resultOrigin: string, window: SheetWindow = { kind: 'frame' }): string {
  const formAction = window.kind === 'page' ? `'self' ${resultOrigin}` : "'self'";
  return `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action ${formAction}; frame-ancestors ${resultOrigin}; base-uri 'none'`;
}

/** The last page: the gateway's script by nonce, no form. */
export function walletDonePolicy(nonce: string, resultOrigin: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; form-action 'none'; frame-ancestors ${resultOrigin}; base-uri 'none'`;
}

function documentOf(texts: SheetTexts, nonce: string, title: string, main: string, bodyData?: Readonly<Record<string, string>>, tail?: string): string {
  return renderDocument({ locale: texts.locale, title, nonce, main, tone: 'provider', style: SHEET_STYLE, bodyData, tail });
}

export function renderWalletSheet(sheet: WalletSheet, texts: SheetTexts, nonce: string, window: SheetWindow = { kind: 'frame' }): string {
  const { page, sheet: words } = texts;
  const amount = formatAmount(sheet.amount, sheet.currency, texts.locale);
  const title = fill(words.title, { wallet: sheet.wallet });
  const cards = SHEET_TEST_CARDS.map((card, index) => {
    const ending = `${card.brand} ${fill(page.cardEnding, { last4: lastFour(card) })}`;
    return `<label><input type="radio" name="card" value="${escapeHtml(card.key)}"${index === 0 ? ' checked' : ''} required><span class="card">${escapeHtml(ending)}</span><span class="note">${escapeHtml(card.approves ? words.approves : words.declines)}</span></label>`;
  }).join('\n');
  const hidden = [['wallet', sheet.wallet], ['lang', texts.locale], ['shopperResultUrl', sheet.shopperResultUrl], ...sheetWindowFields(window)]
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value!)}">`).join('\n');
  const main = `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(fill(words.intro, { wallet: sheet.wallet }))}</p>
<dl class="details"><div><dt>${escapeHtml(page.amount)}</dt><dd class="wallet">${escapeHtml(amount)}</dd></div></dl>
<form method="post" action="wallet-sheet">
${hidden}
<fieldset>
<legend>${escapeHtml(words.cardLegend)}</legend>
<div class="cards">
${cards}
</div>
</fieldset>
<div class="actions">
<button type="submit" name="outcome" value="pay" class="primary">${escapeHtml(fill(words.pay, { amount }))}</button>
<button type="submit" name="outcome" value="cancel" class="secondary" formnovalidate>${escapeHtml(page.cancel)}</button>
</div>
</form>`;
  return documentOf(texts, nonce, title, main);
}

/** What the widget needs of the payment's answer to go on as after a card payment; never the card. */
export type SheetOutcome = { readonly outcome: 'cancel' } | { readonly outcome: 'answer'; readonly status: number; readonly body: Record<string, unknown> };

/**
 * Who gets the outcome: the parent (the sheet in the widget's dialog, framed by the result
 * page's origin only) or the opener (the sheet in the widget's popup), at that origin only.
 */
export interface DoneTarget {
  readonly window: 'parent' | 'opener';
  readonly origin: string;
}

export function doneTargetOf(window: SheetWindow, resultOrigin: string): DoneTarget {
  return window.kind === 'popup' ? { window: 'opener', origin: window.opener } : { window: 'parent', origin: resultOrigin };
}

export function renderWalletDone(outcome: SheetOutcome, texts: SheetTexts, nonce: string, target: DoneTarget): string {
  const { sheet: words } = texts;
  const cancelled = outcome.outcome === 'cancel';
  const title = cancelled ? words.cancelledTitle : words.sentTitle;
  const message = JSON.stringify({ tag: 'wpwl', type: WALLET_MESSAGE_TYPE, ...outcome });
  const data = { 'wpwl-message': message, 'wpwl-origin': target.origin, 'wpwl-window': target.window };
  const main = `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(cancelled ? words.cancelledText : words.sentText)}</p>`;
  const script = `<script nonce="${escapeHtml(nonce)}" src="../../widget/wallet-sheet.js?v=${WALLET_SHEET_SCRIPT_VERSION}"></script>\n`;
  return documentOf(texts, nonce, title, main, data, script);
}
