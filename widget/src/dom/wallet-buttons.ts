/**
 * The wallet buttons of the test system (docs/widget.md, "Wallets on the test system"): a button
 * per wallet of `data-brands`, above the other methods, each in a form of its own with OPPWA's
 * class pattern (`wpwl-form-virtualAccount-WALLETA`). A click opens the gateway's simulated
 * wallet sheet in the widget's dialog; the sheet pays through the checkout on the gateway's side
 * and posts the answer to this page, which goes on as after a card payment. No card data ever
 * reaches the page: the sheet shows the shopper brand and last four digits, and the gateway
 * makes the wallet's token itself.
 */
import { walletTextsOf, withWallet } from '../i18n/wallet-texts.js';
import { htmlLang } from '../rules/locale.js';
import { sheetWindowOf, walletNameOf } from '../rules/wallets.js';
import css from '../wallet-buttons.css';
import type { WidgetContext } from './context.js';
import { h } from './elements.js';
import { showFormMessage, submitGroup } from './groups.js';
import { frameDialog, messagePopup } from './overlay.js';
import { handleAnswer } from './submit.js';
import { DECLINE_MESSAGE } from '../rules/decline-reason.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Each wallet's colour on its mark: neutral drawings of our own, not any provider's artwork. */
const MARK_COLOURS: Readonly<Record<string, string>> = { WALLETA: '#0f766e', WALLETB: '#4338ca', WALLETC: '#c2410c' };

function svg(tag: string, attributes: Readonly<Record<string, string>>): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

/** A wallet: its body in the wallet's colour, a lighter flap, the clasp, and the wallet's letter. */
function walletMark(brand: string): SVGElement {
  const mark = svg('svg', { viewBox: '0 0 30 20', width: '30', height: '20', class: `wpwl-wallet-mark wpwl-brand-logo-${brand}`, 'aria-hidden': 'true', focusable: 'false' });
  const letter = svg('text', { x: '9', y: '14.5', 'text-anchor': 'middle', fill: '#fff', 'font-family': 'Arial,Helvetica,sans-serif', 'font-weight': '700', 'font-size': '11' });
  letter.textContent = brand.slice(-1);
  mark.append(
    svg('rect', { x: '1', y: '3', width: '28', height: '16', rx: '3', fill: MARK_COLOURS[brand] ?? '#475467' }),
    svg('path', { d: 'M4 3l16-2.5a2 2 0 0 1 2.3 2V3z', fill: MARK_COLOURS[brand] ?? '#475467', opacity: '.6' }),
    svg('rect', { x: '19', y: '8', width: '10', height: '6', rx: '2', fill: '#fff', opacity: '.9' }),
    svg('circle', { cx: '22.5', cy: '11', r: '1.3', fill: MARK_COLOURS[brand] ?? '#475467' }),
    letter,
  );
  return mark;
}

function adoptWalletStyles(): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch {
    // Without constructable style sheets the buttons are plain buttons, still usable.
  }
}

/**
 * The sheet's address: the wallet, the widget's language, where the shopper returns (the form's
 * action, as a payment sends it) and the window it opens in (src/http/widget/wallet-sheet-window.ts):
 * a popup names this page's origin, the only one its outcome is posted to.
 */
function sheetUrl(context: WidgetContext, wallet: string, merchantForm: HTMLFormElement, where: 'frame' | 'popup' | 'page'): string {
  const query = new URLSearchParams({ wallet, lang: htmlLang(context.locale), shopperResultUrl: merchantForm.action });
  if (where === 'popup') query.set('opener', location.origin);
  if (where !== 'frame') query.set('window', where);
  return `${context.base}checkouts/${encodeURIComponent(context.checkoutId)}/wallet-sheet?${query}`;
}

function setWalletBusy(button: HTMLButtonElement, busy: boolean): void {
  button.disabled = busy;
  button.setAttribute('aria-busy', String(busy));
}

/**
 * The sheet in the widget's dialog where this page may frame it, else in a popup, else (a
 * blocked popup) in the whole window, which ends on the result page. The dialog and the popup
 * hand over the payment's answer, or that the shopper cancelled.
 */
function openSheet(context: WidgetContext, merchantForm: HTMLFormElement, brand: string, button: HTMLButtonElement, message: HTMLElement): void {
  const wallet = walletNameOf(brand);
  const texts = walletTextsOf(context.locale);
  const restore = () => {
    setWalletBusy(button, false);
    button.focus();
  };
  const onOutcome = (data: Record<string, unknown>) => {
    if (data['outcome'] !== 'answer') return restore();
    const status = typeof data['status'] === 'number' ? data['status'] : 0;
    const body = typeof data['body'] === 'object' && data['body'] !== null ? (data['body'] as Record<string, unknown>) : undefined;
    const shown = (text: string) => {
      restore();
      showFormMessage(message, text);
    };
    // Field errors cannot be corrected on this page (the sheet made the fields): a message.
    // A decline (tabs, accordion) says its reason here; the shopper may take another wallet or card.
    handleAnswer(context, merchantForm, status, body, {
      showFieldErrors: () => shown(context.labels.paymentFailed),
      showMessage: shown,
      showDecline: (reason) => shown(context.labels[DECLINE_MESSAGE[reason]]),
    });
  };
  showFormMessage(message, '');
  setWalletBusy(button, true);
  if (sheetWindowOf({ pageOrigin: location.origin, resultUrl: context.resultOrigin ?? merchantForm.action }) === 'frame') {
    const dialog = frameDialog(context, withWallet(texts.sheet, wallet), (data) => {
      if (data['type'] !== 'wallet') return;
      dialog.close();
      onOutcome(data);
    }, restore);
    dialog.frame.src = sheetUrl(context, wallet, merchantForm, 'frame');
    return;
  }
  // The popup's first message is its outcome: the sheet's last page posts nothing else.
  const opened = messagePopup(context, sheetUrl(context, wallet, merchantForm, 'popup'), (data) => (data['type'] === 'wallet' ? onOutcome(data) : restore()), restore);
  if (!opened) window.top!.location.href = sheetUrl(context, wallet, merchantForm, 'page');
}

/** The group of wallet buttons, above the other methods; `brands` are the offered wallet brands. */
export function walletButtons(context: WidgetContext, merchantForm: HTMLFormElement, brands: readonly string[]): HTMLElement {
  if (context.style !== 'none') adoptWalletStyles();
  const texts = walletTextsOf(context.locale);
  const message = h('div', { class: 'wpwl-message wpwl-has-error', role: 'alert', hidden: true });
  const forms = brands.map((brand) => {
    const { group, button } = submitGroup(withWallet(texts.pay, walletNameOf(brand)));
    button.className = `wpwl-button wpwl-button-wallet wpwl-button-wallet-${brand}`;
    button.prepend(walletMark(brand));
    // The group's own message is not needed: one for all wallets, under them.
    group.querySelector('.wpwl-message')?.remove();
    const form = h('form', { class: `wpwl-form wpwl-form-virtualAccount wpwl-form-virtualAccount-${brand} wpwl-form-wallet`, novalidate: true }, group);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (!button.disabled) openSheet(context, merchantForm, brand, button, message);
    });
    return form;
  });
  return h('div', { class: 'wpwl-wallets', role: 'group', 'aria-label': texts.group }, ...forms, message);
}
