import { escapeHtml } from '../../src/connectors/simulator/pages/html.js';
import type { ThreeDsLog } from './log.js';

/**
 * The ACS's 3DS Method URL (EMV 3DS 2.2, 5.8): the 3DS Requestor's page loads it in a hidden
 * iframe with a form post of `threeDSMethodData` (base64url JSON: threeDSServerTransID and
 * threeDSMethodNotificationURL). A real ACS gathers the browser's fingerprint here; the platform
 * records that the method ran (the log's `Method` entry of the transaction) and posts
 * `threeDSMethodData` (base64url JSON of threeDSServerTransID) back to the notification URL, as
 * the spec has the ACS do. A later AReq of the method row (table.ts) with threeDSCompInd Y is
 * then answered frictionless.
 */

export const METHOD_PATH = '/acs/method';
export const METHOD_SCRIPT_PATH = '/acs/method.js';

/** Submits the page's one form: the only script the platform serves, so the page's CSP can stay 'self'. */
export const METHOD_SCRIPT = `document.getElementById('method').submit();\n`;

export interface MethodPage {
  readonly status: number;
  readonly html: string;
  readonly csp: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The method data, or why it is refused (never logged: its URL is the requestor's, not the card's, but the platform logs only ids). */
export function readMethodData(value: string | null): { readonly threeDSServerTransID: string; readonly notificationURL: string } | undefined {
  if (!value || !/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const { threeDSServerTransID: id, threeDSMethodNotificationURL: url } = (data ?? {}) as Record<string, unknown>;
  if (typeof id !== 'string' || !UUID.test(id) || typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  } catch {
    return undefined;
  }
  return { threeDSServerTransID: id, notificationURL: url };
}

export function runMethod(form: URLSearchParams, log: ThreeDsLog): MethodPage {
  const data = readMethodData(form.get('threeDSMethodData'));
  if (!data) return { status: 400, html: '<!doctype html><title>3DS Method</title><p>threeDSMethodData is missing or malformed.</p>', csp: "default-src 'none'" };
  log.record(data.threeDSServerTransID, 'Method', 'in', { notificationOrigin: new URL(data.notificationURL).origin });
  const answer = Buffer.from(JSON.stringify({ threeDSServerTransID: data.threeDSServerTransID }), 'utf8').toString('base64url');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>3DS Method</title></head>
<body><form id="method" method="post" action="${escapeHtml(data.notificationURL)}"><input type="hidden" name="threeDSMethodData" value="${answer}"><noscript><button type="submit">Continue</button></noscript></form>
<script src="${METHOD_SCRIPT_PATH}"></script></body></html>`;
  return { status: 200, html, csp: `default-src 'none'; script-src 'self'; form-action ${new URL(data.notificationURL).origin}; base-uri 'none'` };
}
