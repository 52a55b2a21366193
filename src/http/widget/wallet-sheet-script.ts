/**
 * The script of the wallet sheet's last page (wallet-sheet-page.ts), served as
 * /v1/widget/wallet-sheet.js so the page's policy needs no inline script: it hands the outcome
 * the page carries to the widget, addressed to one origin only: on the parent page, the result
 * page's origin (the only origin the page's frame-ancestors lets frame it); on the page that
 * opened the sheet's popup, the origin the widget named there (wallet-sheet-window.ts). Without
 * script the page still says what happened, and the dialog's close button (or closing the
 * popup) ends it.
 */
import { createHash } from 'node:crypto';

export const WALLET_SHEET_SCRIPT = `(function () {
  var body = document.body;
  var message = body.getAttribute('data-wpwl-message');
  var origin = body.getAttribute('data-wpwl-origin');
  var target = body.getAttribute('data-wpwl-window') === 'opener' ? window.opener : window.parent;
  if (!message || !origin || !target || target === window) return;
  target.postMessage(JSON.parse(message), origin);
})();
`;

/** The script's content hash: its URL carries it, so it may be cached for long. */
export const WALLET_SHEET_SCRIPT_VERSION = createHash('sha256').update(WALLET_SHEET_SCRIPT).digest('hex').slice(0, 20);
