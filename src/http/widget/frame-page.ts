/**
 * The secure field frame's page: one input, the frame script (by nonce) and a nonce'd style. Its
 * policy lets any merchant page embed it (frame-ancestors *) and lets it talk only to its own
 * origin (the payment post); the merchant's page, of another origin, cannot read into it.
 */

const FRAME_STYLE = [
  'html,body{margin:0;padding:0;height:100%;background:transparent;overflow:hidden}',
  // --text and --error: the page's control colour and its theme's error colour (frame.ts sets them).
  'input{box-sizing:border-box;display:block;width:100%;height:100%;margin:0;padding:0 .75rem;border:0;outline:0;background:transparent;font:inherit;font-size:1rem;color:var(--text,#1b1f24)}',
  'input[aria-invalid=true]{color:var(--error,#b71c1c)}',
  '.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}',
].join('');

/** The Content-Security-Policy of the frame page for one nonce. */
export function framePolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    'frame-ancestors *',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** `scriptPath` is relative to the page (frame.js?v=…), so the page works under any base path. */
export function renderFramePage(nonce: string, scriptPath: string): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta name="robots" content="noindex"><title>Card field</title>
<style nonce="${nonce}">${FRAME_STYLE}</style></head>
<body><input id="field" type="text" inputmode="numeric" autocomplete="off" spellcheck="false"><div id="hint" class="sr" aria-live="polite"></div>
<script nonce="${nonce}" src="${scriptPath}"></script></body></html>
`;
}
