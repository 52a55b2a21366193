/** The merchant shop's HTML: plain pages, as small as a real shop's checkout would allow. */

/** The `redirect` block of an asynchronous payment's first answer. */
export interface Redirect {
  readonly url: string;
  readonly method: string;
  readonly parameters?: readonly { readonly name: string; readonly value: string }[];
}

/** Successfully processed transactions (the result-code groups merchants are told to check). */
export const SUCCESS_CODE = /^(000\.000\.|000\.100\.1|000\.[36])/;

const STYLE = `<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}button{font-size:1.1rem;padding:.6rem 1.2rem}</style>`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string, bodyAttributes = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${STYLE}</head><body${bodyAttributes}>${body}</body></html>`;
}

/**
 * The shopper's "Pay" button. Its script fills in what only the browser knows, for 3-D Secure v2
 * (customer.browser.*; the Accept and User-Agent headers the server reads from the request).
 */
export function checkoutPage(order: { id: string; parameters: Readonly<Record<string, string>> }): string {
  const { amount, currency, paymentBrand } = order.parameters;
  const hidden = ['language', 'screenHeight', 'screenWidth', 'timezone', 'javaEnabled'].map((name) => `<input type="hidden" name="${name}">`).join('');
  const script = `<script>
const f = document.forms.pay;
f.language.value = navigator.language;
f.screenHeight.value = String(screen.height);
f.screenWidth.value = String(screen.width);
f.timezone.value = String(new Date().getTimezoneOffset());
f.javaEnabled.value = String(typeof navigator.javaEnabled === 'function' && navigator.javaEnabled());
</script>`;
  const body = `<h1>Checkout</h1>
<p>Order <code>${escapeHtml(order.id)}</code>: <strong data-testid="total">${escapeHtml(`${amount ?? ''} ${currency ?? ''}`)}</strong></p>
<form name="pay" method="post" action="/pay/${escapeHtml(order.id)}">${hidden}
<button type="submit" id="pay">Pay with ${escapeHtml(paymentBrand ?? 'card')}</button></form>${script}`;
  return page('Checkout', body);
}

/**
 * Sends the browser on to the gateway's redirect with an auto-submitted form of redirect.method,
 * redirect.parameters as hidden inputs. A GET form replaces its action's query string with its
 * inputs, so the query of redirect.url travels as inputs too.
 */
export function redirectPage(redirect: Redirect): string {
  const method = redirect.method.toUpperCase() === 'GET' ? 'get' : 'post';
  const target = new URL(redirect.url);
  const fromQuery = method === 'get' ? [...target.searchParams].map(([name, value]) => ({ name, value })) : [];
  if (method === 'get') target.search = '';
  const inputs = [...fromQuery, ...(redirect.parameters ?? [])]
    .map((p) => `<input type="hidden" name="${escapeHtml(p.name)}" value="${escapeHtml(p.value)}">`)
    .join('');
  const body = `<p>Taking you to your payment…</p>
<form name="redirect" method="${method}" action="${escapeHtml(target.toString())}">${inputs}
<noscript><button type="submit">Continue</button></noscript></form>`;
  return page('Redirecting', body, ' onload="document.forms.redirect.submit()"');
}

/** The shopperResultUrl's page: what the merchant's server learnt from its status call. */
export function resultPage(payment: Record<string, any> | undefined, note?: string): string {
  const code = String(payment?.['result']?.['code'] ?? '');
  const paid = SUCCESS_CODE.test(code);
  const heading = paid ? 'Thank you for your order!' : 'Your payment was not completed';
  const body = `<h1 data-testid="outcome" data-paid="${paid}">${heading}</h1>
<p>Payment <code data-testid="payment-id">${escapeHtml(String(payment?.['id'] ?? '–'))}</code></p>
<p>Result <code data-testid="result-code">${escapeHtml(code || '–')}</code> ${escapeHtml(String(payment?.['result']?.['description'] ?? ''))}</p>
${note ? `<p>${escapeHtml(note)}</p>` : ''}`;
  return page(paid ? 'Thank you' : 'Payment not completed', body);
}
