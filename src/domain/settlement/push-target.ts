import { isAddressLiteral, judgeAddress } from '../webhook-address.js';
import { refusedAddressMessage, type WebhookTargetRules } from '../webhook-url.js';

/** A merchant's own server the reconciliation files are pushed to. */
export interface PushTarget {
  readonly protocol: 'sftp' | 'ftp' | 'ftps';
  readonly host: string;
  readonly port: number;
  readonly username: string;
  /** The remote folder, absolute. */
  readonly directory: string;
}

const DEFAULT_PORTS = { sftp: 22, ftp: 21, ftps: 21 } as const;

/**
 * `sftp://user@host[:port]/folder`, `ftp://…` or `ftps://…` (explicit TLS). The password never
 * travels in the URL (it is sealed apart); the live system refuses plain FTP, as it refuses plain
 * HTTP for webhooks, and a host given as an address must be public or allow-listed
 * (WEBHOOK_ALLOWED_ADDRESSES). Answers the target or what is wrong with the URL.
 */
export function parsePushTarget(raw: string, rules: WebhookTargetRules): PushTarget | { readonly problem: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'must be an sftp://, ftps:// or ftp:// URL' };
  }
  const protocol = url.protocol.slice(0, -1);
  if (protocol !== 'sftp' && protocol !== 'ftp' && protocol !== 'ftps') return { problem: 'must be an sftp://, ftps:// or ftp:// URL' };
  if (rules.httpsOnly && protocol === 'ftp') return { problem: 'must be sftp:// or ftps:// on the live system' };
  if (url.hostname === '' || url.username === '') return { problem: 'must name a user and a host (sftp://user@host/folder)' };
  if (url.password !== '') return { problem: 'must not carry the password (it is given apart and sealed)' };
  if (url.search !== '' || url.hash !== '') return { problem: 'must not carry a query or fragment' };
  if (isAddressLiteral(url.hostname)) {
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const verdict = judgeAddress(host, rules.allowedAddresses);
    if (!verdict.allowed) return { problem: refusedAddressMessage(host, verdict.addressClass) };
  }
  return {
    protocol,
    host: url.hostname,
    port: url.port === '' ? DEFAULT_PORTS[protocol] : Number(url.port),
    username: decodeURIComponent(url.username),
    directory: decodeURIComponent(url.pathname) || '/',
  };
}

/** The URL as stored and shown: no secret in it. */
export function pushTargetUrl(target: PushTarget): string {
  return `${target.protocol}://${encodeURIComponent(target.username)}@${target.host}:${target.port}${target.directory}`;
}
