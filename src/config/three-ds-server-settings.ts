import { readEnum, readInteger, readOptional, readUrl, type Env } from './env-readers.js';
import { collectThreeDsServerTls, THREE_DS_SERVER_TLS_VARIABLES, type ThreeDsServerTls } from './three-ds-server-tls.js';

/**
 * The EMV 3-D Secure directory server the gateway's own 3DS server connector speaks to
 * (connectors/emv3ds-server/, docs/three-d-secure.md): the emulator of emulators/three-ds-host on
 * a test system or a rehearsal, a scheme's directory in production. Unset: the test system keeps
 * the in-process simulation, the live system has no 3DS server.
 */
export interface ThreeDsServerSettings {
  /** The DS's AReq endpoint (the emulator's is <url>/ds/areq). */
  readonly areqUrl: string;
  readonly timeoutMs: number;
  /** The AReq's messageVersion where the directory's card ranges are not known (no PReq URL, or no PRes). */
  readonly messageVersion: '2.2.0' | '2.3.1';
  /**
   * The DS's PReq endpoint (the emulator's is <url>/ds/preq): set, the connector asks for the card
   * ranges, negotiates the version per range and sends no AReq for a card in none
   * (card-ranges.ts). Unset: every card gets an AReq of messageVersion.
   */
  readonly preqUrl?: string | undefined;
  /** How long a PRes's card ranges serve before the next PReq (minutes). */
  readonly cardRangesRefreshMinutes: number;
  /** The 3DS server's reference number EMVCo assigns it; the emulator takes any. */
  readonly serverReferenceNumber: string;
  readonly requestor: { readonly id: string; readonly name: string; readonly url: string };
  readonly acquirer: { readonly bin: string; readonly merchantId: string; readonly mcc: string; readonly countryCode: string };
  /**
   * Mutual TLS with the directory (THREE_DS_SERVER_CLIENT_CERT_FILE, …_KEY_FILE, …_CA_FILE): the
   * connector then speaks through mtls-fetch.ts as a route with certificates does. Never logged.
   */
  readonly tls?: ThreeDsServerTls | undefined;
}

export const THREE_DS_SERVER_VARIABLES = [
  ['THREE_DS_SERVER_DS_URL', '(unset)', 'http(s) URL of the EMV 3-D Secure directory server\'s AReq endpoint (`npm run three-ds-host` serves http://127.0.0.1:8590/ds/areq). Set: card payments that need 3-D Secure are authenticated by the gateway\'s 3DS server connector over the protocol, on the test system instead of the in-process simulation, and on the live system (a rehearsal against the emulator). Browser channel: frictionless answers and the challenge (the ACS posts its RReq to <PUBLIC_URL>/v1/threeDSecure/results, or without PUBLIC_URL to the address the payment\'s request came to: either must be one the ACS reaches; docs/three-d-secure.md). The gateway-wide default: a 3DS server route (connector emv3ds-server) takes the payments it matches, with its own directory, fields and mutual TLS client certificate (docs/three-d-secure.md, "3DS server routes and mutual TLS").'],
  ['THREE_DS_SERVER_TIMEOUT_MS', '10000', 'An AReq without ARes after this long is an authentication without result (status U: declined where the entity requires 3-D Secure, else the payment goes on without liability shift). With CONNECTOR_TIMEOUT_MS it must be shorter than HANDLER_TIMEOUT_MS.'],
  ['THREE_DS_SERVER_MESSAGE_VERSION', '2.2.0', 'messageVersion of the AReq: 2.2.0 or 2.3.1. With THREE_DS_SERVER_PREQ_URL only where the card ranges are not known (the PRes could not be had).'],
  ['THREE_DS_SERVER_PREQ_URL', '(unset)', 'http(s) URL of the directory server\'s PReq endpoint (the emulator\'s is http://127.0.0.1:8590/ds/preq). Set: the gateway asks for the card ranges at start and every THREE_DS_SERVER_CARD_RANGES_REFRESH_MINUTES, picks each card\'s messageVersion from its range (the highest of 2.2.0 and 2.3.1 the range allows) and sends no AReq for a card in no range (not enrolled). Without a PRes it falls back to THREE_DS_SERVER_MESSAGE_VERSION and logs it (docs/three-d-secure.md).'],
  ['THREE_DS_SERVER_CARD_RANGES_REFRESH_MINUTES', '60', 'How long the directory\'s card ranges (a PRes) serve before the gateway asks again; a PReq that failed is retried after at most a minute.'],
  ['THREE_DS_SERVER_METHOD_TIMEOUT_MS', '10000', 'How long the gateway\'s 3DS Method page waits for the ACS\'s notification (a card whose range names a threeDSMethodURL) before the AReq goes with threeDSCompInd N; notified in time, it says Y (EMV 3DS: 10 s). For every 3DS server, the default and the routes (docs/three-d-secure.md, "The 3DS Method").'],
  ['THREE_DS_SERVER_REF_NUMBER', 'GATEWAY-3DS-SERVER', 'threeDSServerRefNumber: the 3DS server\'s EMVCo reference number.'],
  ['THREE_DS_REQUESTOR_ID', 'gateway-requestor', 'threeDSRequestorID the directory assigned.'],
  ['THREE_DS_REQUESTOR_NAME', 'Payment Gateway', 'threeDSRequestorName, also the AReq\'s merchantName.'],
  ['THREE_DS_REQUESTOR_URL', 'https://gateway.example', 'threeDSRequestorURL.'],
  ['THREE_DS_ACQUIRER_BIN', '400000', 'acquirerBIN of the AReq.'],
  ['THREE_DS_ACQUIRER_MERCHANT_ID', 'GATEWAY-MERCHANT', 'acquirerMerchantID of the AReq.'],
  ['THREE_DS_MCC', '5999', 'mcc (merchant category code) of the AReq.'],
  ['THREE_DS_MERCHANT_COUNTRY', '276', 'merchantCountryCode (ISO 3166-1 numeric) of the AReq.'],
  ...THREE_DS_SERVER_TLS_VARIABLES,
  ['THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES', '15', 'A 3-D Secure challenge of the gateway\'s own 3DS server (a default\'s or a route\'s) whose RReq has not come this long after the ARes ends: the expiry job declines the payment with 100.390.124 (abandoned), as an N with the ACS\'s timeout in challengeCancel would. Once the RReq has come, the shopper has REDIRECT_EXPIRY_MINUTES from the start to come back. Decimals allowed (tests).'],
] as const;

const MESSAGE_VERSIONS = ['2.2.0', '2.3.1'] as const;

function readText(env: Env, name: string, fallback: string, pattern: RegExp, problems: string[]): string {
  const value = readOptional(env, name) ?? fallback;
  if (!pattern.test(value)) problems.push(`${name} must match ${pattern.source}`);
  return value;
}

/** THREE_DS_SERVER_METHOD_TIMEOUT_MS: read whether or not the default directory is set (3DS server routes run the method too). */
export function readThreeDsMethodTimeoutMs(env: Env, problems: string[]): number {
  return readInteger(env, 'THREE_DS_SERVER_METHOD_TIMEOUT_MS', 10_000, 100, 30_000, problems);
}

export function collectThreeDsServerSettings(env: Env, problems: string[]): ThreeDsServerSettings | undefined {
  const areqUrl = readUrl(env, 'THREE_DS_SERVER_DS_URL', ['http:', 'https:'], problems);
  const timeoutMs = readInteger(env, 'THREE_DS_SERVER_TIMEOUT_MS', 10_000, 100, 60_000, problems);
  const messageVersion = readEnum(env, 'THREE_DS_SERVER_MESSAGE_VERSION', MESSAGE_VERSIONS, '2.2.0', problems);
  const requestor = {
    id: readText(env, 'THREE_DS_REQUESTOR_ID', 'gateway-requestor', /^.{1,35}$/, problems),
    name: readText(env, 'THREE_DS_REQUESTOR_NAME', 'Payment Gateway', /^.{1,40}$/, problems),
    url: readText(env, 'THREE_DS_REQUESTOR_URL', 'https://gateway.example', /^https?:\/\/.{1,2040}$/, problems),
  };
  const acquirer = {
    bin: readText(env, 'THREE_DS_ACQUIRER_BIN', '400000', /^\d{1,11}$/, problems),
    merchantId: readText(env, 'THREE_DS_ACQUIRER_MERCHANT_ID', 'GATEWAY-MERCHANT', /^.{1,35}$/, problems),
    mcc: readText(env, 'THREE_DS_MCC', '5999', /^\d{4}$/, problems),
    countryCode: readText(env, 'THREE_DS_MERCHANT_COUNTRY', '276', /^\d{3}$/, problems),
  };
  const preqUrl = readUrl(env, 'THREE_DS_SERVER_PREQ_URL', ['http:', 'https:'], problems);
  const cardRangesRefreshMinutes = readInteger(env, 'THREE_DS_SERVER_CARD_RANGES_REFRESH_MINUTES', 60, 1, 24 * 60, problems);
  const serverReferenceNumber = readText(env, 'THREE_DS_SERVER_REF_NUMBER', 'GATEWAY-3DS-SERVER', /^.{1,32}$/, problems);
  const tls = collectThreeDsServerTls(env, [areqUrl, preqUrl], problems);
  if (areqUrl === undefined) return undefined;
  return Object.freeze({ areqUrl, timeoutMs, messageVersion, ...(preqUrl !== undefined ? { preqUrl } : {}), cardRangesRefreshMinutes, serverReferenceNumber, requestor, acquirer, ...(tls ? { tls } : {}) });
}

/**
 * How long a protocol challenge waits for the ACS's RReq (THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES). The
 * ACS ends a challenge the shopper leaves unanswered after its own timeout (EMV 3DS: an RReq whose
 * challengeCancel says the ACS timed out); this is a few minutes beyond that, for an ACS whose
 * RReq never comes at all. Read whether or not THREE_DS_SERVER_DS_URL is set: routes' challenges
 * end by it too.
 */
export function readChallengeTimeoutMs(env: Env, problems: string[]): number {
  const raw = readOptional(env, 'THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES');
  if (raw === undefined) return DEFAULT_CHALLENGE_TIMEOUT_MINUTES * 60_000;
  if (!/^[0-9]{1,5}(\.[0-9]{1,3})?$/.test(raw) || Number(raw) < 0.01 || Number(raw) > 10_080) {
    problems.push(`THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES=${JSON.stringify(raw)} must be a number of minutes from 0.01 to 10080 (a week)`);
    return DEFAULT_CHALLENGE_TIMEOUT_MINUTES * 60_000;
  }
  return Math.round(Number(raw) * 60_000);
}

export const DEFAULT_CHALLENGE_TIMEOUT_MINUTES = 15;
