// Placeholder: replaced by the pages branch.
export type PageLocale = string;
export interface HiddenField { readonly name: string; readonly value: string }
export interface ProviderPageInput { readonly locale: PageLocale; readonly brandName: string; readonly merchantName: string; readonly amount: string; readonly currency: string; readonly formAction: string; readonly hidden: readonly HiddenField[]; readonly nonce: string }
export interface ChallengePageInput { readonly locale: PageLocale; readonly merchantName: string; readonly amount: string; readonly currency: string; readonly cardLast4: string; readonly formAction: string; readonly hidden: readonly HiddenField[]; readonly nonce: string }
export interface EndedPageInput { readonly locale: PageLocale; readonly reason: 'completed' | 'expired' | 'not-found' }
export const PROVIDER_OUTCOMES = ['approve', 'decline', 'cancel'] as const;
export const CHALLENGE_PAGE_OUTCOMES = ['Y', 'N', 'U', 'R', 'cancel'] as const;
const esc = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export function pickLocale(requested: string | undefined, acceptLanguage: string | undefined): PageLocale {
  const first = (requested ?? acceptLanguage ?? 'en').slice(0, 2).toLowerCase();
  return first === 'de' ? 'de' : 'en';
}
function page(locale: string, title: string, body: string, nonce: string): string {
  return `<!doctype html><html lang="${esc(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(title)}</title><style nonce="${esc(nonce)}">body{font-family:sans-serif}</style></head><body><h1>${esc(title)}</h1>${body}</body></html>`;
}
function form(action: string, hidden: readonly HiddenField[], values: readonly string[]): string {
  return `<form method="post" action="${esc(action)}">${hidden.map((h) => `<input type="hidden" name="${esc(h.name)}" value="${esc(h.value)}">`).join('')}${values.map((v) => `<button type="submit" name="outcome" value="${esc(v)}">${esc(v)}</button>`).join('')}</form>`;
}
export function renderProviderPage(i: ProviderPageInput): string {
  return page(i.locale, i.locale === 'de' ? `Bezahlen mit ${i.brandName}` : `Pay with ${i.brandName}`, `<p>${esc(i.merchantName)} ${esc(i.amount)} ${esc(i.currency)}</p>${form(i.formAction, i.hidden, PROVIDER_OUTCOMES)}`, i.nonce);
}
export function renderChallengePage(i: ChallengePageInput): string {
  return page(i.locale, '3-D Secure', `<p>${esc(i.merchantName)} ${esc(i.amount)} ${esc(i.currency)} •••• ${esc(i.cardLast4)}</p>${form(i.formAction, i.hidden, CHALLENGE_PAGE_OUTCOMES)}`, i.nonce);
}
export function renderEndedPage(i: EndedPageInput): string {
  return page(i.locale, i.reason, '', '');
}
