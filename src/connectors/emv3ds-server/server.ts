import type { ThreeDsServerSettings } from '../../config/three-ds-server-settings.js';
import type { Clock, IdGenerator } from '../../domain/ids.js';
import { readMessage } from '../emv3ds/codec.js';
import type { AReqMessage, CReqMessage } from '../emv3ds/types.js';
import { matchTransaction, validate } from '../emv3ds/validate.js';
import type { JsonObject } from '../emv3ds/formats.js';
import type { PoolLogger } from '../iso8583/pool-log.js';
import type { RedirectInstruction } from '../connector.js';
import type { AppChallenge, ChallengeStart, DirectoryQuery, LookupAnswer, ThreeDSecureServer } from '../three-d-secure.js';
import { buildAReq } from './areq.js';
import { answerOfARes } from './ares.js';
import { CardRangeCache } from './card-range-cache.js';
import type { RangeDecision } from './card-ranges.js';
import { directoryTransport, type DirectoryTransport } from './mtls-fetch.js';
import { DEFAULT_METHOD_TIMEOUT_MS, methodUrlToRun, threeDSCompIndOf, type MethodDone } from './method.js';

/**
 * The gateway's own EMV 3-D Secure server (issue 37): the ThreeDSecureServer port spoken over
 * HTTP to a directory server (the emulator of emulators/three-ds-host, or a scheme's DS). It
 * sends the AReq, checks the answer with the message layer (src/connectors/emv3ds/) and maps
 * its transStatus (ares.ts). Anything that is not a well-formed ARes for this AReq (a timeout, a
 * refused connection, an HTTP error, an Erro, a malformed or foreign ARes) is 'unavailable': no
 * result, so never a success of the authentication.
 *
 * The three channels: browser (02), frictionless and challenged: a challenge (C) sends the
 * shopper's browser to the ACS with the CReq (challengeRedirect); the ACS's RReq and the
 * browser's final CRes come back to the gateway's routes (operations/three-d-secure/
 * challenge-result.ts). With settings.tls (the default's THREE_DS_SERVER_*_FILE) it speaks mutual
 * TLS through mtls-fetch.ts, as a route's connector does with the route's certificates. App (01):
 * the AReq carries the SDK's data, and a challenge is handed to the SDK (appChallenge); the RReq
 * alone ends it. 3RI (03): no challenge is possible, so a C is no result (docs/three-d-secure.md).
 * A browser card whose ACS has a 3DS Method URL runs the method first, through the gateway's
 * method page (method.ts; operations/three-d-secure/method-*.ts), where the caller can show it
 * (DirectoryQuery.methodPage).
 */

export interface Emv3dsServerDeps {
  readonly settings: ThreeDsServerSettings;
  readonly clock: Clock;
  readonly ids: Pick<IdGenerator, 'id'>;
  /** The gateway's address from its settings (PUBLIC_URL, else its host and port): the last resort for both URLs below. */
  readonly gatewayBaseUrl: string;
  /** PUBLIC_URL: where the ACS posts its RReq, server to server; without it, the address the payment's request came to. */
  readonly publicUrl?: string | undefined;
  readonly logger?: PoolLogger | undefined;
  /** Replaced by tests; globalThis.fetch otherwise. */
  readonly fetch?: typeof fetch | undefined;
  /** THREE_DS_SERVER_METHOD_TIMEOUT_MS: how long the method page waits for the ACS's notification. */
  readonly methodTimeoutMs?: number | undefined;
}

/** Where the ACS posts the RReq (threeDSServerURL) and the browser the final CRes (notificationURL). */
export const RESULTS_PATH = '/v1/threeDSecure/results';
export const NOTIFICATION_PATH = '/v1/threeDSecure/notification';
/**
 * The gateway's page that posts the CReq to the ACS (operations/three-d-secure/challenge-start-page.ts).
 * The payment's redirect leads there rather than to the ACS: the merchant's page (its CSP
 * form-action) and the widget's overlay (it frames the gateway's own pages only) need to know
 * nothing but the gateway's origin, whichever ACS the card's issuer runs.
 */
export const CHALLENGE_START_PATH = '/v1/threeDSecure/challenge';

/** An EMV 3DS transaction id (a UUID) from a 32-hex gateway id. */
function uuidFromHex(hex32: string): string {
  const h = hex32.toLowerCase().padEnd(32, '0').slice(0, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Why no result came; logged with the transaction id, never with the card or the message. */
type NoResult = 'no-common-version' | 'challenge-to-3ri' | 'timeout' | 'unreachable' | `http-${number}` | `erro-${string}` | `malformed-${string}` | 'foreign' | `unsupported-transStatus-${string}` | `not-sent-${string}`;

export class Emv3dsServer implements ThreeDSecureServer {
  readonly id = 'emv3ds-server';
  readonly readsDeviceInfo = true;
  readonly requestorInitiated = true;
  readonly #deps: Emv3dsServerDeps;
  /** The directory's card ranges, where THREE_DS_SERVER_PREQ_URL is set (card-range-cache.ts). */
  readonly #ranges: CardRangeCache | undefined;
  /** Mutual TLS of the default (settings.tls): its own kept-alive connections, ended by close(). */
  readonly #transport: DirectoryTransport | undefined;

  constructor(deps: Emv3dsServerDeps) {
    const { settings } = deps;
    // A route's connector gets its transport's fetch; the default builds its own from THREE_DS_SERVER_*_FILE.
    this.#transport = settings.tls && !deps.fetch ? directoryTransport(settings.tls) : undefined;
    this.#deps = this.#transport ? { ...deps, fetch: this.#transport.fetch } : deps;
    deps = this.#deps;
    if (settings.preqUrl) {
      this.#ranges = new CardRangeCache({
        preqUrl: settings.preqUrl, refreshMs: settings.cardRangesRefreshMinutes * 60_000, timeoutMs: settings.timeoutMs,
        serverReferenceNumber: settings.serverReferenceNumber, clock: deps.clock, newTransId: () => uuidFromHex(deps.ids.id()),
        logger: deps.logger, fetch: deps.fetch,
      });
      this.#ranges.warm();
    }
  }

  async lookup(query: DirectoryQuery): Promise<LookupAnswer> {
    const { settings, clock, ids, gatewayBaseUrl } = this.#deps;
    const range = await this.#ranges?.decide(query.pan);
    // After the 3DS Method the AReq goes in the method's transaction (EMV 3DS 2.2, 5.8).
    const transId = query.methodDone?.threeDSServerTransID ?? uuidFromHex(ids.id());
    // A card in none of the directory's ranges is not enrolled: no AReq (EMV 3DS 2.2, 5.1.3).
    if (range?.kind === 'not-enrolled') return { kind: 'not-enrolled' };
    if (range?.kind === 'no-common-version') return this.#noResult(transId, 'no-common-version');
    const methodUrl = methodUrlToRun(range, query);
    if (methodUrl) return { kind: 'method', method: { threeDSServerTransID: transId, threeDSMethodURL: methodUrl, timeoutMs: this.#deps.methodTimeoutMs ?? DEFAULT_METHOD_TIMEOUT_MS } };
    const built = buildAReq(query, settings, {
      ...areqVersionOf(range, query.methodDone),
      threeDSServerTransID: transId,
      now: clock.now(),
      threeDSServerURL: `${this.#deps.publicUrl ?? query.gatewayBaseUrl ?? gatewayBaseUrl}${RESULTS_PATH}`,
      // The browser posts the final CRes where it reached the gateway (the request's address); the
      // ACS's RReq goes to PUBLIC_URL where set, as it must reach the gateway server to server.
      notificationURL: `${query.gatewayBaseUrl ?? gatewayBaseUrl}${NOTIFICATION_PATH}`,
    });
    if (!built.ok) return this.#noResult(transId, `not-sent-${built.refusal}`);
    const answer = await this.#send(built.areq);
    if (typeof answer === 'string') return this.#noResult(transId, answer);
    const channel = built.areq.deviceChannel;
    // The SDK's transaction: an ARes that names another is not this app's answer.
    if (channel === '01' && answer.sdkTransID !== undefined && answer.sdkTransID.toLowerCase() !== built.areq.sdkTransID?.toLowerCase()) return this.#noResult(transId, 'foreign');
    const mapped = answerOfARes(answer, channel);
    if (mapped.kind === 'unavailable') return this.#noResult(transId, channel === '03' && answer.transStatus === 'C' ? 'challenge-to-3ri' : `unsupported-transStatus-${answer.transStatus}`);
    return mapped;
  }

  /** The ARes for an AReq, or why there is none. */
  async #send(areq: AReqMessage) {
    const { settings } = this.#deps;
    let text: string;
    try {
      const response = await (this.#deps.fetch ?? fetch)(settings.areqUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json' },
        body: JSON.stringify(areq),
        // The directory answers at the address configured, or not at all: a redirect is no ARes.
        redirect: 'error',
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      if (!response.ok) return `http-${response.status}` as const;
      text = await response.text();
    } catch (error) {
      return (error as Error).name === 'TimeoutError' ? 'timeout' as const : 'unreachable' as const;
    }
    const read = readMessage(text);
    if (!read.ok) return `malformed-${read.error.code}` as const;
    const message = read.message;
    if (message.messageType === 'Erro') return `erro-${message.errorCode}` as const;
    if (message.messageType !== 'ARes') return 'malformed-101' as const;
    // An ARes of another transaction (301) is not this payment's answer.
    if (matchTransaction(message as unknown as JsonObject, { threeDSServerTransID: areq.threeDSServerTransID })) return 'foreign' as const;
    return message;
  }

  #noResult(transId: string, reason: NoResult): LookupAnswer {
    this.#deps.logger?.warn({ threeDSServerTransID: transId, reason }, '3-D Secure directory gave no result: authentication unavailable');
    return { kind: 'unavailable' };
  }

  challengeRedirect(start: ChallengeStart): RedirectInstruction {
    // Checked now, so a CReq the ACS would refuse fails the payment's request, not the shopper's page.
    challengeRedirectOf(start);
    return { url: `${start.gatewayBaseUrl}${CHALLENGE_START_PATH}/${start.reference}`, method: 'GET', parameters: [] };
  }

  close(): void {
    this.#transport?.close();
  }

  appChallenge(start: ChallengeStart): AppChallenge {
    return appChallengeOf(start);
  }

  /** Never to be asked: the ARes (frictionless) or the RReq (challenge) brings the data; inventing it would be a result without one. */
  authenticationData(): never {
    throw new Error('emv3ds-server: authentication data comes with the ARes or the RReq');
  }
}

/** The challenge window the CReq asks for: the request's, else 05 (full screen), as the simulator does. */
const DEFAULT_WINDOW_SIZE = '05';

/**
 * The browser's way to the ACS (EMV 3DS 2.2, 6.2.3.1): a form POST of `creq`, the CReq as
 * base64url JSON, and `threeDSSessionData`, which the ACS hands back with the final CRes and
 * which names the redirect (base64url of its id). The CReq is checked by the message layer
 * before it leaves: a CReq the ACS would refuse is a bug here, not the shopper's problem.
 */
export function challengeRedirectOf(start: ChallengeStart): RedirectInstruction {
  const session = start.session;
  if (!session) throw new Error('emv3ds-server: a challenge without its ARes session');
  const creq = {
    messageType: 'CReq',
    messageVersion: session.messageVersion,
    threeDSServerTransID: session.threeDSServerTransID,
    acsTransID: session.acsTransID,
    challengeWindowSize: start.challengeWindowSize ?? DEFAULT_WINDOW_SIZE,
  } as CReqMessage;
  const checked = validate(creq, 'CReq');
  if (!checked.ok) throw new Error(`emv3ds-server: the CReq does not validate (${checked.error.code} ${checked.error.detail})`);
  return {
    url: session.acsURL,
    method: 'POST',
    parameters: [
      { name: 'creq', value: Buffer.from(JSON.stringify(creq), 'utf8').toString('base64url') },
      { name: 'threeDSSessionData', value: Buffer.from(start.reference, 'utf8').toString('base64url') },
    ],
  };
}

/**
 * What the payment's pending answer gives the app (its threeDSecure block) to start the SDK's
 * challenge: the SDK's ChallengeParameters (EMV 3DS SDK 2.2, 4.2.1: threeDSServerTransactionID,
 * acsTransactionID, acsRefNumber, acsSignedContent) under the names of the simulator's app answer
 * (docs/simulator.md), so an app reads both alike, with authenticationStatus C.
 */
export function appChallengeOf(start: ChallengeStart): AppChallenge {
  const session = start.session;
  if (!session?.app) throw new Error('emv3ds-server: an app challenge without its ARes session');
  return {
    authenticationStatus: 'C',
    version: session.messageVersion,
    threeDSServerTransactionId: session.threeDSServerTransID,
    dsTransactionId: session.dsTransID,
    acsTransactionId: session.acsTransID,
    acsReferenceNumber: session.app.acsReferenceNumber,
    acsSignedContent: session.app.acsSignedContent,
    ...(session.app.sdkTransID ? { sdkTransactionId: session.app.sdkTransID } : {}),
  };
}

/**
 * The AReq's messageVersion and threeDSCompInd from the card's range: its highest common version;
 * threeDSCompInd as method.ts's rule says (Y/N after the method, U without method URL, N where the
 * method did not run). Unknown ranges: the setting's version and N (or the method's result).
 */
export function areqVersionOf(range: RangeDecision | undefined, done?: MethodDone | undefined): { readonly messageVersion?: '2.2.0' | '2.3.1'; readonly threeDSCompInd?: 'Y' | 'N' | 'U' } {
  const threeDSCompInd = threeDSCompIndOf(range, done);
  if (range?.kind !== 'enrolled') return { threeDSCompInd };
  return { messageVersion: range.messageVersion, threeDSCompInd };
}

export function createEmv3dsServer(deps: Emv3dsServerDeps): ThreeDSecureServer {
  return new Emv3dsServer(deps);
}
