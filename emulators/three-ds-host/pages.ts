import { escapeHtml } from '../../src/connectors/simulator/pages/html.js';

/**
 * The ACS's pages: plain server-rendered HTML under a strict CSP (no script at all, styles from
 * the platform's own stylesheet), usable by keyboard, screen reader and at 375 px.
 */

export const STYLESHEET_PATH = '/acs/challenge.css';

export const STYLESHEET = `
:root { color-scheme: light; font-family: system-ui, sans-serif; }
body { margin: 0; background: #f4f5f7; color: #1b1f24; }
main { max-width: 28rem; margin: 0 auto; padding: 1.5rem 1rem; }
h1 { font-size: 1.4rem; margin: 0 0 1rem; }
.issuer { font-weight: 600; color: #1d3f73; margin: 0 0 0.5rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0 0 1.25rem; }
dt { color: #444b55; }
dd { margin: 0; overflow-wrap: anywhere; }
label { display: block; font-weight: 600; margin-bottom: 0.35rem; }
.hint { color: #444b55; margin: 0.35rem 0 1rem; }
input[type=text] { box-sizing: border-box; width: 100%; font-size: 1.2rem; padding: 0.6rem; border: 1px solid #5f6773; border-radius: 4px; letter-spacing: 0.2em; }
input:focus, button:focus { outline: 3px solid #1d63d8; outline-offset: 2px; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; }
button { font-size: 1rem; padding: 0.65rem 1.2rem; border-radius: 4px; border: 1px solid #1d3f73; cursor: pointer; }
button.primary { background: #1d3f73; color: #fff; }
button.secondary { background: #fff; color: #1d3f73; }
.result { padding: 0.75rem 1rem; border-radius: 4px; border: 1px solid; margin: 0 0 1rem; }
.result.ok { background: #e7f4ea; border-color: #2f7a3e; }
.result.failed { background: #fbeaea; border-color: #a1262b; }
`;

/** The page's CSP: no script, our stylesheet, forms only to us and (for the CRes) to the 3DS Requestor's notificationURL. */
export function contentSecurityPolicy(formTarget?: string): string {
  const formAction = formTarget ? `'self' ${new URL(formTarget).origin}` : `'self'`;
  // frame-ancestors stays open: the challenge runs in the merchant's iframe, whatever its origin.
  return `default-src 'none'; style-src 'self'; form-action ${formAction}; base-uri 'none'`;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<main>
<p class="issuer">Test Issuer ACS (emulator)</p>
${body}
</main>
</body>
</html>`;
}

export interface ChallengeView {
  readonly acsTransID: string;
  readonly merchantName: string;
  /** "12.50 (currency 978)", or undefined for a non-payment. */
  readonly amount?: string | undefined;
  readonly panLast4: string;
  readonly threeDSSessionData?: string | undefined;
  /** The platform's accepted code, shown: this is a test platform. */
  readonly testCode: string;
}

export function challengePage(view: ChallengeView): string {
  const session = view.threeDSSessionData ? `<input type="hidden" name="threeDSSessionData" value="${escapeHtml(view.threeDSSessionData)}">` : '';
  return layout('Confirm your payment', `<h1>Confirm your payment</h1>
<dl>
<dt>Merchant</dt><dd>${escapeHtml(view.merchantName)}</dd>
${view.amount ? `<dt>Amount</dt><dd>${escapeHtml(view.amount)}</dd>` : ''}
<dt>Card</dt><dd>ending ${escapeHtml(view.panLast4)}</dd>
</dl>
<form method="post" action="/acs/challenge/submit">
<input type="hidden" name="acsTransID" value="${escapeHtml(view.acsTransID)}">
${session}
<label for="code">One-time code</label>
<input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="8" aria-describedby="code-hint">
<p class="hint" id="code-hint">Test platform: the code ${escapeHtml(view.testCode)} succeeds, any other code fails.</p>
<div class="actions">
<button type="submit" name="action" value="verify" class="primary">Verify</button>
<button type="submit" name="action" value="cancel" class="secondary">Cancel</button>
</div>
</form>`);
}

export interface ResultView {
  readonly transStatus: 'Y' | 'N';
  readonly cancelled: boolean;
  readonly notificationURL: string;
  /** base64url of the final CRes. */
  readonly cres: string;
  readonly threeDSSessionData?: string | undefined;
}

/** The end of the challenge: the final CRes in a form the shopper sends on (no script may send it). */
export function resultPage(view: ResultView): string {
  const message = view.cancelled ? 'You cancelled the authentication.' : view.transStatus === 'Y' ? 'The code is correct: your payment is confirmed.' : 'The code is not correct: the payment is not confirmed.';
  const session = view.threeDSSessionData ? `<input type="hidden" name="threeDSSessionData" value="${escapeHtml(view.threeDSSessionData)}">` : '';
  return layout('Authentication finished', `<h1>Authentication finished</h1>
<p class="result ${view.transStatus === 'Y' ? 'ok' : 'failed'}" role="status">${escapeHtml(message)}</p>
<form method="post" action="${escapeHtml(view.notificationURL)}">
<input type="hidden" name="cres" value="${escapeHtml(view.cres)}">
${session}
<div class="actions"><button type="submit" class="primary">Continue</button></div>
</form>`);
}

/** A refused challenge request: the error code and description, never the message's values. */
export function errorPage(errorCode: string, description: string): string {
  return layout('Authentication not possible', `<h1>Authentication not possible</h1>
<p class="result failed" role="alert">The challenge request was refused: error ${escapeHtml(errorCode)}, ${escapeHtml(description)}.</p>`);
}
