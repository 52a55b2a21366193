/**
 * The end of a real ACS's challenge in a top-level window (routes/three-ds-server.ts): the final
 * CRes reaches the gateway by a form on the ACS's page, and an ACS's CSP form-action, which covers
 * the redirects after a form's submission, names the notificationURL's origin but not the
 * merchant's (the 3DS test platform's does exactly that). A 303 to the merchant's result page
 * would be blocked there, so the gateway answers this page, which goes on by itself (a refresh
 * without delay, no script) and offers the link for a browser that does not.
 */
import { escapeHtml } from '../connectors/simulator/pages/index.js';

export function challengeReturnPolicy(): string {
  return "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
}

export function renderChallengeReturn(location: string): string {
  const origin = new URL(location).origin;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${escapeHtml(location)}"><title>Back to ${escapeHtml(origin)}</title></head>
<body><main><p><a href="${escapeHtml(location)}">Back to ${escapeHtml(origin)}</a></p></main></body></html>
`;
}
