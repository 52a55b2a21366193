/**
 * paymentWidgets.js at work: finds its own <script> (the gateway's address and the checkout id
 * are in its src), reads wpwlOptions, asks the gateway for the checkout and for the texts of the
 * shopper's language, and renders the forms of every `form.paymentWidgets` next to it.
 */
import { formsOf, isCardBrand, parseBrands } from '../rules/brands.js';
import { directionOf, htmlLang } from '../rules/locale.js';
import { numberLocaleOf, payLabel } from '../rules/pay-label.js';
import { bankForm } from './bank-form.js';
import { cardForm, type FrameLook } from './card-form.js';
import type { Bootstrap, StoredCard, WidgetContext } from './context.js';
import { h } from './elements.js';
import type { FormParts } from './form-parts.js';
import { submitGroup } from './groups.js';
import { methodsWidget, type Method } from './methods.js';
import { contextOf, readOptions, withTexts } from './options.js';
import { loadTexts } from './texts.js';
import { registrationsForm } from './registrations-form.js';
import { isWalletBrand, offeredWallets } from '../rules/wallets.js';
import { walletButtons } from './wallet-buttons.js';
import { controlStyle } from './secure-frame.js';
import { failureText } from './decline.js';
import { adoptStyles } from './styles.js';

const READY_ATTRIBUTE = 'data-wpwl-ready';

function ownScript(): HTMLScriptElement | undefined {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement && /paymentWidgets\.js/.test(current.src)) return current;
  return document.querySelector<HTMLScriptElement>('script[src*="paymentWidgets.js"]') ?? undefined;
}

export function boot(): void {
  const script = ownScript();
  if (!script) return;
  const src = new URL(script.src, location.href);
  const checkoutId = src.searchParams.get('checkoutId') ?? '';
  const options = readOptions((window as { wpwlOptions?: unknown }).wpwlOptions);
  const context = contextOf(options, new URL('./', src).href, checkoutId);
  if (context.style !== 'none') adoptStyles();
  // Both at once: the checkout, and the texts of the shopper's language (none to fetch for English).
  const answers = Promise.all([loadBootstrap(context), loadTexts(context)]);
  const start = () => void answers.then(([answer, texts]) => renderAll(withTexts(context, options, texts), answer, options.onReady));
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
  else start();
}

/**
 * The checkout, 'gone' (unknown, expired or no longer open) or unreachable (the network, the
 * gateway: with the answer's result code, which may say "try again in a moment").
 */
type BootstrapAnswer = Bootstrap | 'gone' | { readonly unreachable: string };

async function loadBootstrap(context: WidgetContext): Promise<BootstrapAnswer> {
  if (!/^[A-Za-z0-9.\-]{1,64}$/.test(context.checkoutId)) return 'gone';
  try {
    const response = await fetch(`${context.base}checkouts/${encodeURIComponent(context.checkoutId)}/widget`, { credentials: 'omit' });
    if (response.status === 400 || response.status === 404) return 'gone';
    if (!response.ok) return { unreachable: await resultCodeOf(response) };
    const bootstrap = (await response.json()) as Bootstrap;
    // 'pending': the shopper came back from a provider's or issuer's page; a new attempt cancels that one.
    return bootstrap.state === 'open' || bootstrap.state === 'pending' ? bootstrap : 'gone';
  } catch {
    return { unreachable: '' };
  }
}

async function resultCodeOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => undefined)) as { result?: { code?: unknown } } | undefined;
  return String(body?.result?.code ?? '');
}

function isCheckout(answer: BootstrapAnswer): answer is Bootstrap {
  return typeof answer !== 'string' && !('unreachable' in answer);
}

async function renderAll(pageContext: WidgetContext, bootstrap: BootstrapAnswer, onReady: unknown): Promise<void> {
  const context: WidgetContext = isCheckout(bootstrap) ? withCheckout(pageContext, bootstrap) : pageContext;
  const merchantForms = Array.from(document.querySelectorAll<HTMLFormElement>('form.paymentWidgets'));
  const parts = merchantForms.flatMap((merchantForm) => renderInto(context, merchantForm, bootstrap));
  await Promise.race([Promise.all(parts.map((part) => part.ready)), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  for (const container of document.querySelectorAll('.wpwl-container')) container.setAttribute(READY_ATTRIBUTE, 'true');
  if (context.autofocus) parts.some((part) => part.focus(context.autofocus!));
  if (typeof onReady === 'function') onReady();
}

/** What the checkout adds: where the widget posts, where the shopper returns, the amount on the button. */
function withCheckout(context: WidgetContext, bootstrap: Bootstrap): WidgetContext {
  const submit = context.amountOnButton ? payLabel(context.labels, bootstrap.amount, bootstrap.currency, numberLocaleOf(context.locale, context.requestedLocale)) : context.labels.submit;
  return { ...context, purpose: bootstrap.purpose ?? 'payment', resultOrigin: bootstrap.shopperResultOrigin, shopperCountry: bootstrap.shopperCountry, labels: { ...context.labels, submit } };
}

function renderInto(context: WidgetContext, merchantForm: HTMLFormElement, bootstrap: BootstrapAnswer): FormParts[] {
  const dir = directionOf(context.locale);
  const lang = htmlLang(context.locale);
  const layoutClass = context.layout === 'forms' ? '' : ` wpwl-layout-${context.layout}`;
  const container = h('div', { class: `wpwl-container wpwl-container-${context.style} wpwl-clearfix wpwl-scheme-${context.colorScheme}${layoutClass}`, lang, dir });
  // Set through the CSSOM, which the merchant's style-src does not govern; values checked in options.ts.
  for (const [variable, value] of context.theme) container.style.setProperty(variable, value);
  merchantForm.after(container);
  // The merchant's form stays (its customParameters inputs are read on payment), hidden when empty.
  if (merchantForm.elements.length === 0) merchantForm.hidden = true;
  if (!isCheckout(bootstrap)) {
    const text = bootstrap === 'gone' ? context.labels.checkoutExpired : failureText(context.labels, bootstrap.unreachable);
    container.append(h('div', { class: 'wpwl-message wpwl-has-error', role: 'alert' }, text));
    return [];
  }
  const look: FrameLook = { lang, dir, style: controlStyle };
  // The gateway's risk engine may offer this shopper fewer brands than the page lists.
  const listed = parseBrands(merchantForm.getAttribute('data-brands')).filter((brand) => !bootstrap.hiddenBrands?.includes(brand));
  // Wallets get a button above the other methods where the gateway serves their sheet, and never a form.
  const wallets = offeredWallets({ brands: listed, served: bootstrap.wallets });
  if (wallets.length > 0) container.append(walletButtons(context, merchantForm, wallets));
  const brands = listed.filter((brand) => !isWalletBrand(brand));
  if (context.layout !== 'forms') return renderMethods(context, merchantForm, container, brands, bootstrap.registrations ?? [], look);
  const parts: FormParts[] = [];
  const cards = bootstrap.registrations ?? [];
  if (cards.length > 0 && brands.some(isCardBrand)) parts.push(registrationsForm(context, merchantForm, cards, look));
  for (const spec of formsOf(brands)) parts.push(spec.kind === 'card' ? cardForm(context, merchantForm, spec.brands, look) : bankForm(context, merchantForm, spec));
  container.append(...parts.map((part) => part.form));
  // With stored cards above it, the card form says it is for another card.
  const cardPart = parts.find((part) => part.form.classList.contains('wpwl-form-card'));
  if (cards.length > 0 && parts[0] !== cardPart) cardPart?.form.prepend(h('div', { class: 'wpwl-label wpwl-label-otherCard' }, context.labels.otherCard));
  if (context.style === 'logos') container.prepend(brandChooser(parts));
  for (const part of parts) part.mount();
  return parts;
}

/** The tabs and accordion layouts: the same forms as methods of one widget with one pay button. */
function renderMethods(context: WidgetContext, merchantForm: HTMLFormElement, container: HTMLElement, brands: readonly string[], cards: readonly StoredCard[], look: FrameLook): FormParts[] {
  const shared = submitGroup(context.labels.submit);
  const methods: Method[] = [];
  if (cards.length > 0 && brands.some(isCardBrand)) methods.push({ label: context.labels.storedCards, brands: [...new Set(cards.map((card) => card.brand))], card: true, part: registrationsForm(context, merchantForm, cards, look, shared) });
  for (const spec of formsOf(brands)) {
    methods.push(spec.kind === 'card'
      ? { label: context.labels.cardMethod, brands: spec.brands, card: true, part: cardForm(context, merchantForm, spec.brands, look, shared) }
      : { label: spec.name, brands: [spec.brand], card: false, part: bankForm(context, merchantForm, spec, shared) });
  }
  if (methods.length === 0) return [];
  container.append(methodsWidget(context, methods, shared));
  const parts = methods.map((method) => method.part);
  for (const part of parts) part.mount();
  return parts;
}

/** The logos style: a button per form; the forms stay folded until the shopper picks one. */
function brandChooser(parts: readonly FormParts[]): HTMLElement {
  const choosable = parts.filter((part) => part.brands.length > 0);
  const buttons = choosable.map((part, index) => {
    part.form.id ||= `wpwl-form-${index}-${Math.random().toString(36).slice(2, 8)}`;
    part.form.hidden = true;
    const button = h('button', { type: 'button', class: 'wpwl-button wpwl-button-brand', 'aria-expanded': 'false', 'aria-controls': part.form.id }, ...part.brands.map((brand) => h('span', { class: `wpwl-brand wpwl-brand-${brand}` }, brand)));
    button.addEventListener('click', () => {
      choosable.forEach((other, otherIndex) => {
        other.form.hidden = otherIndex !== index;
        buttons[otherIndex]!.setAttribute('aria-expanded', String(otherIndex === index));
      });
    });
    return button;
  });
  return h('div', { class: 'wpwl-group wpwl-group-brands wpwl-clearfix' }, ...buttons);
}
