import type { ThreeDsServerSettings } from '../../config/three-ds-server-settings.js';
import type { Clock, IdGenerator } from '../../domain/ids.js';
import { readMessage } from '../emv3ds/codec.js';
import type { AReqMessage } from '../emv3ds/types.js';
import { matchTransaction } from '../emv3ds/validate.js';
import type { JsonObject } from '../emv3ds/formats.js';
import type { PoolLogger } from '../iso8583/pool-log.js';
import type { DirectoryQuery, LookupAnswer, ThreeDSecureServer } from '../three-d-secure.js';
import { buildAReq } from './areq.js';
import { answerOfARes } from './ares.js';

/**
 * The gateway's own EMV 3-D Secure server (issue 37): the ThreeDSecureServer port spoken over
 * HTTP to a directory server (the emulator of emulators/three-ds-host, or a scheme's DS). It
 * sends the AReq, checks the answer with the message layer (src/connectors/emv3ds/) and maps
 * its transStatus (ares.ts). Anything that is not a well-formed ARes for this AReq (a timeout, a
 * refused connection, an HTTP error, an Erro, a malformed or foreign ARes) is 'unavailable': no
 * result, so never a success of the authentication.
 *
 * Built so far: the browser channel's frictionless answers. A challenge (C), the app channel,
 * the 3DS Method, the RReq endpoint and mutual TLS are later work (docs/three-d-secure.md).
 */

export interface Emv3dsServerDeps {
  readonly settings: ThreeDsServerSettings;
  readonly clock: Clock;
  readonly ids: Pick<IdGenerator, 'id'>;
  /** The gateway's address as the ACS reaches it (RReq) and the shopper's browser (final CRes). */
  readonly gatewayBaseUrl: string;
  readonly logger?: PoolLogger | undefined;
  /** Replaced by tests; globalThis.fetch otherwise. */
  readonly fetch?: typeof fetch | undefined;
}

/** Where the ACS would post the RReq and the browser the final CRes (not served yet: no challenge runs). */
export const RESULTS_PATH = '/v1/threeDSecure/results';
export const NOTIFICATION_PATH = '/v1/threeDSecure/notification';

/** An EMV 3DS transaction id (a UUID) from a 32-hex gateway id. */
function uuidFromHex(hex32: string): string {
  const h = hex32.toLowerCase().padEnd(32, '0').slice(0, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Why no result came; logged with the transaction id, never with the card or the message. */
type NoResult = 'timeout' | 'unreachable' | `http-${number}` | `erro-${string}` | `malformed-${string}` | 'foreign' | `unsupported-transStatus-${string}` | `not-sent-${string}`;

export class Emv3dsServer implements ThreeDSecureServer {
  readonly id = 'emv3ds-server';
  readonly #deps: Emv3dsServerDeps;

  constructor(deps: Emv3dsServerDeps) {
    this.#deps = deps;
  }

  async lookup(query: DirectoryQuery): Promise<LookupAnswer> {
    const { settings, clock, ids, gatewayBaseUrl } = this.#deps;
    const transId = uuidFromHex(ids.id());
    const built = buildAReq(query, settings, {
      threeDSServerTransID: transId,
      now: clock.now(),
      threeDSServerURL: `${gatewayBaseUrl}${RESULTS_PATH}`,
      notificationURL: `${gatewayBaseUrl}${NOTIFICATION_PATH}`,
    });
    if (!built.ok) return this.#noResult(transId, `not-sent-${built.refusal}`);
    const answer = await this.#send(built.areq);
    if (typeof answer === 'string') return this.#noResult(transId, answer);
    const mapped = answerOfARes(answer);
    if (mapped.kind === 'unavailable') return this.#noResult(transId, `unsupported-transStatus-${answer.transStatus}`);
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

  challengeRedirect(): never {
    throw new Error('emv3ds-server runs no challenge yet: lookup never answers challenge');
  }

  appChallenge(): never {
    throw new Error('emv3ds-server runs no app challenge yet: lookup never answers challenge');
  }

  /** Reached only after a challenge, which this server never starts; its frictionless answers carry their own data. */
  authenticationData(): never {
    throw new Error('emv3ds-server: authentication data comes with the ARes');
  }
}

export function createEmv3dsServer(deps: Emv3dsServerDeps): ThreeDSecureServer {
  return new Emv3dsServer(deps);
}
