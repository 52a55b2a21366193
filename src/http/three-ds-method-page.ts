/**
 * The gateway's 3DS Method page (operations/three-d-secure/method-page.ts; docs/three-d-secure.md,
 * "The 3DS Method"). No inline script: its one script is a file of the gateway's
 * (METHOD_SCRIPT below, served at METHOD_SCRIPT_PATH under `script-src 'self'`). It posts the
 * hidden form (threeDSMethodData) into the hidden iframe, which the ACS's page then navigates to
 * the gateway's notification URL; once that frame shows the gateway's own origin the method
 * notified, else after the page's timeout it goes on anyway: the continue form, posted to the
 * gateway. The server decides threeDSCompInd from what it recorded, not from the page.
 *
 * Its CSP lets frames and forms go to the ACS's origin and the gateway's own only, and only a
 * widget payment's result page frame it (the widget's overlay), as the challenge page.
 */
import { escapeHtml } from '../connectors/simulator/pages/index.js';
import { METHOD_NOTIFICATION_PATH, METHOD_SCRIPT_PATH } from '../connectors/emv3ds-server/method.js';

export function methodPagePolicy(nonce: string, acsOrigin: string, framingOrigin: string | undefined): string {
  return `default-src 'none'; script-src 'self'; style-src 'nonce-${nonce}'; frame-src ${acsOrigin} 'self'; form-action ${acsOrigin} 'self'; frame-ancestors ${framingOrigin ?? "'none'"}; base-uri 'none'`;
}

const STYLE = 'body{font:1rem/1.5 system-ui,sans-serif;margin:2rem;color:#1b1f24}button{font:inherit;padding:.5rem 1rem}';
const FRAME_NAME = 'threeds-method';

export interface MethodPageForm {
  readonly methodUrl: string;
  readonly methodData: string;
  readonly continuePath: string;
  readonly timeoutMs: number;
}

export function renderMethodPage(nonce: string, page: MethodPageForm): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Secure payment step</title>
<style nonce="${nonce}">${STYLE}</style></head>
<body><main><h1>Secure payment step</h1><p role="status">Your bank checks your browser. This takes a few seconds.</p>
<form id="method-continue" method="post" action="${escapeHtml(page.continuePath)}" data-timeout-ms="${page.timeoutMs}" data-notified-path="${METHOD_NOTIFICATION_PATH}"><button type="submit">Continue</button></form></main>
<form id="method-form" method="post" action="${escapeHtml(page.methodUrl)}" target="${FRAME_NAME}" hidden><input type="hidden" name="threeDSMethodData" value="${escapeHtml(page.methodData)}"></form>
<iframe name="${FRAME_NAME}" title="Your bank's browser check" hidden tabindex="-1"></iframe>
<script src="${METHOD_SCRIPT_PATH}"></script></body></html>
`;
}

/**
 * The page's script: posts the method form, goes on once the frame shows the gateway's
 * notification (same origin: readable; the ACS's page is not) or after the timeout, once.
 */
export const METHOD_SCRIPT = `(function () {
  'use strict';
  var go = document.getElementById('method-continue');
  var form = document.getElementById('method-form');
  var frame = document.querySelector('iframe[name="${FRAME_NAME}"]');
  if (!go || !form || !frame) return;
  var done = false;
  function next() {
    if (done) return;
    done = true;
    go.submit();
  }
  frame.addEventListener('load', function () {
    try {
      if (frame.contentWindow.location.pathname === go.getAttribute('data-notified-path')) next();
    } catch (e) {
      /* the ACS's own page: not readable from here */
    }
  });
  go.addEventListener('submit', function () { done = true; });
  setTimeout(next, Number(go.getAttribute('data-timeout-ms')) || 10000);
  form.submit();
})();
`;

/** What the notification answers in the hidden iframe: nothing to show, and nothing sensitive (so no frame-ancestors: the widget's overlay nests it). */
export function methodNotificationPolicy(): string {
  return "default-src 'none'; base-uri 'none'; form-action 'none'";
}

export function renderMethodNotification(accepted: boolean, why: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>3-D Secure method</title></head>
<body><p>${accepted ? 'Received.' : `Refused: ${escapeHtml(why)}.`}</p></body></html>
`;
}
