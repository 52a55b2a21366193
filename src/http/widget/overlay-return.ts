/**
 * The end of a redirect shown in the widget's overlay (docs/widget.md, `redirectTarget`): instead
 * of a 303 to the merchant's result page inside the frame (which the merchant page's own
 * frame-src would refuse, and which would leave the shop inside the overlay), a page that tells
 * the widget on its parent page where to send the shopper. Only the result page's origin may
 * frame it and receive the message, which carries nothing the 303 would not.
 */
import { escapeHtml } from '../../connectors/simulator/pages/index.js';

/** The message the widget's overlay waits for (widget/src/dom/overlay.ts). */
export const OVERLAY_RETURN_TYPE = 'return';

/**
 * 'self' too: a real ACS's challenge runs in a frame of the gateway's own page inside the overlay
 * (http/challenge-start-page.ts), so this page's parent is then that page, which passes the
 * message on to the widget.
 */
export function overlayReturnPolicy(nonce: string, resultOrigin: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; frame-ancestors 'self' ${resultOrigin}; base-uri 'none'; form-action 'none'`;
}

/** The script posts the location to the parent; without script, a link opens it in the top window. */
export function renderOverlayReturn(nonce: string, location: string): string {
  const resultOrigin = new URL(location).origin;
  const message = JSON.stringify({ tag: 'wpwl', type: OVERLAY_RETURN_TYPE, url: location }).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${escapeHtml(resultOrigin)}</title></head>
<body><p><a href="${escapeHtml(location)}" target="_top">${escapeHtml(resultOrigin)}</a></p>
<script nonce="${nonce}">parent.postMessage(${message}, ${JSON.stringify(resultOrigin)});parent.postMessage(${message}, location.origin);</script></body></html>
`;
}
