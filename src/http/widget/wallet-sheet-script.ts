/**
 * The script of the wallet sheet's last page (wallet-sheet-page.ts), served as
 * /v1/widget/wallet-sheet.js so the page's policy needs no inline script: it hands the outcome
 * the page carries to the widget on the parent page, addressed to the result page's origin only
 * (the only origin the page's frame-ancestors lets frame it). Without script the page still says
 * what happened, and the dialog's close button ends it.
 */
import { createHash } from 'node:crypto';

export const WALLET_SHEET_SCRIPT = `(function () {
  var body = document.body;
  var message = body.getAttribute('data-wpwl-message');
  var origin = body.getAttribute('data-wpwl-origin');
  if (!message || !origin || window.parent === window) return;
  window.parent.postMessage(JSON.parse(message), origin);
})();
`;

/** The script's content hash: its URL carries it, so it may be cached for long. */
export const WALLET_SHEET_SCRIPT_VERSION = createHash('sha256').update(WALLET_SHEET_SCRIPT).digest('hex').slice(0, 20);
