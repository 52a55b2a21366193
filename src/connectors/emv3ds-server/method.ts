import type { RangeDecision } from './card-ranges.js';

/**
 * The 3DS Method (EMV 3DS 2.2, 5.8 and 6.2.2), pure: the `threeDSMethodData` the shopper's browser
 * posts to the ACS's threeDSMethodURL (and the ACS posts back to the notification URL), and the
 * AReq's threeDSCompInd. The gateway runs the method through a page of its own
 * (operations/three-d-secure/method-*.ts, docs/three-d-secure.md "The 3DS Method").
 */

/** The gateway's method page (GET …/{id}), where its continue form posts (POST …/{id}/continue) and its script. */
export const METHOD_PAGE_PATH = '/v1/threeDSecure/method';
/** The threeDSMethodNotificationURL: the ACS's page in the hidden iframe posts threeDSMethodData here. */
export const METHOD_NOTIFICATION_PATH = '/v1/threeDSecure/method/notification';
export const METHOD_SCRIPT_PATH = '/v1/threeDSecure/method.js';

/** How long the page waits for the ACS's notification before the AReq goes with threeDSCompInd N (the spec's 10 s). */
export const DEFAULT_METHOD_TIMEOUT_MS = 10_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
/** threeDSMethodData is a UUID and a URL of at most 256 characters in base64url: far under this. */
const METHOD_DATA_MAX_LENGTH = 2048;

/** What the gateway posts to the ACS: the transaction and where the ACS answers. */
export function encodeMethodData(threeDSServerTransID: string, threeDSMethodNotificationURL: string): string {
  return Buffer.from(JSON.stringify({ threeDSServerTransID, threeDSMethodNotificationURL }), 'utf8').toString('base64url');
}

/**
 * The threeDSServerTransID of the threeDSMethodData the ACS posts back (base64url JSON; the ACS
 * sends threeDSServerTransID, the notification URL is optional there), lower case; undefined for
 * anything that is not one.
 */
export function decodeMethodData(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > METHOD_DATA_MAX_LENGTH || !BASE64URL.test(value)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const id = (data as Record<string, unknown>)['threeDSServerTransID'];
  return typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : undefined;
}

/** The method's end as the AReq reports it: Y the ACS notified in time, N it did not. */
export interface MethodDone {
  readonly threeDSServerTransID: string;
  readonly completed: 'Y' | 'N';
}

/**
 * threeDSCompInd (EMV 3DS 2.2, table A.1): Y the method completed, N it did not (or ran no way it
 * could: ranges unknown, so whether the ACS has a method is not known), U the card's ACS has no
 * 3DS Method URL. A method that ran says its own result whatever the ranges say now.
 */
export function threeDSCompIndOf(range: RangeDecision | undefined, done: MethodDone | undefined): 'Y' | 'N' | 'U' {
  if (done) return done.completed;
  if (range?.kind !== 'enrolled') return 'N';
  return range.threeDSMethodURL ? 'N' : 'U';
}

/**
 * Whether the payment first runs the 3DS Method: the card's range names a method URL, the channel
 * is the browser, the caller can show the gateway's method page, and the method has not run yet.
 */
export function methodUrlToRun(range: RangeDecision | undefined, query: { readonly channel?: string | undefined; readonly methodPage?: boolean | undefined; readonly methodDone?: MethodDone | undefined }): string | undefined {
  if (range?.kind !== 'enrolled' || !range.threeDSMethodURL) return undefined;
  if (query.channel === 'app' || query.methodPage !== true || query.methodDone) return undefined;
  return range.threeDSMethodURL;
}
