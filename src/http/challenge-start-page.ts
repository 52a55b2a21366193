/**
 * The gateway's page that takes the shopper to a real ACS (operations/three-d-secure/
 * challenge-start-page.ts): a form with the CReq, posted by a nonce'd script at once, its button
 * for a browser without script. Its CSP lets the form go to the ACS's origin only, and the page be
 * framed only by a widget payment's result page (the widget's overlay).
 *
 * In the widget's overlay the ACS cannot be the overlay's own frame: the merchant's page lets its
 * frames show the gateway's origin only (its CSP frame-src), and cannot know every issuer's ACS.
 * So there this page holds the ACS in a frame of its own, as hosted checkouts do, and passes the
 * end of the challenge (http/widget/overlay-return.ts, posted by the gateway's page in that
 * frame) on to the widget.
 */
import type { RedirectInstruction } from '../connectors/connector.js';
import { escapeHtml } from '../connectors/simulator/pages/index.js';

export function challengeStartPolicy(nonce: string, acsOrigin: string, framingOrigin: string | undefined): string {
  const frames = framingOrigin === undefined ? '' : ` frame-src ${acsOrigin} 'self';`;
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}';${frames} form-action ${acsOrigin}; frame-ancestors ${framingOrigin ?? "'none'"}; base-uri 'none'`;
}

const STYLE = 'body{font:1rem/1.5 system-ui,sans-serif;margin:2rem;color:#1b1f24}button{font:inherit;padding:.5rem 1rem}';
const FRAMED_STYLE = 'html,body{margin:0;height:100%}iframe{display:block;border:0;width:100%;height:100%}.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}';

function formOf(form: RedirectInstruction, target?: string): string {
  const inputs = form.parameters.map((p) => `<input type="hidden" name="${escapeHtml(p.name)}" value="${escapeHtml(p.value)}">`).join('');
  return `<form method="post" action="${escapeHtml(form.url)}"${target ? ` target="${target}"` : ''}>${inputs}<button type="submit">Continue to your bank</button></form>`;
}

/** The top window's page: the form goes to the ACS at once. */
export function renderChallengeStart(nonce: string, form: RedirectInstruction): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Secure payment step</title>
<style nonce="${nonce}">${STYLE}</style></head>
<body><main><h1>Secure payment step</h1><p>Your bank confirms that it is you.</p>
${formOf(form)}</main>
<script nonce="${nonce}">document.forms[0].submit();</script></body></html>
`;
}

/**
 * In the widget's overlay: the ACS in this page's frame; the end of the challenge, which the
 * gateway's page in that frame posts here (same origin), goes on to the widget on the merchant's
 * page (framingOrigin) as it came.
 */
export function renderFramedChallengeStart(nonce: string, form: RedirectInstruction, framingOrigin: string): string {
  const relay = `addEventListener('message',function(e){if(e.origin===location.origin&&e.source===frames.acs&&e.data&&e.data.tag==='wpwl'){parent.postMessage(e.data,${JSON.stringify(framingOrigin)});}});document.forms[0].submit();`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Secure payment step</title>
<style nonce="${nonce}">${FRAMED_STYLE}</style></head>
<body><div class="sr">${formOf(form, 'acs')}</div><iframe name="acs" title="Secure payment step"></iframe>
<script nonce="${nonce}">${relay}</script></body></html>
`;
}
