import type { AuthenticationStatus, DirectoryAnswer } from '../domain/three-d-secure/answers.js';
import type { AuthenticatedAmount, DeviceChannel } from '../domain/three-d-secure/authentication-request.js';
import type { SdkDeviceInfo } from '../domain/three-d-secure/device-info.js';
import type { RequestorAuthentication } from '../domain/three-d-secure/requestor-authentication.js';
import type { RedirectInstruction } from './connector.js';

// The port owns its types: the simulated directory (simulator/three-d-secure/) and any real 3DS
// server implement them; neither the operations nor the port import an implementation.
export type { AuthenticationStatus, ChallengeChoice, DirectoryAnswer } from '../domain/three-d-secure/answers.js';

/** What the gateway asks the directory about a card: the AReq's facts that decide the answer. */
export interface DirectoryQuery {
  readonly pan: string;
  /** customParameters[3DS2_enrolled]=true */
  readonly forcedEnrolled: boolean;
  /** customParameters[3DS2_flow] */
  readonly forcedFlow?: 'challenge' | 'frictionless' | undefined;
  /** threeDSecure.challengeIndicator 04 */
  readonly challengeRequested: boolean;
  /**
   * threeDSecure.challengeIndicator (01-09) as the request (or the risk decision's step-up) gives
   * it: a real AReq's threeDSRequestorChallengeInd. Absent: 04 where challengeRequested, else 01.
   */
  readonly challengeIndicator?: string | undefined;
  /**
   * A real AReq's threeDSRequestorAuthenticationInd and, for a recurring or instalment series, its
   * data (domain/three-d-secure/requestor-authentication.ts). Absent: 01 (payment).
   */
  readonly requestorAuthentication?: RequestorAuthentication | undefined;
  readonly exemptionFlag?: string | undefined;
  /**
   * The AReq's purchase amount: what the shopper confirms, which the ACS shows on its challenge
   * (threeDSecure.amount, else risk.amount, else the payment's amount). The simulated directory's
   * answer depends on the card alone, as the test cards of compatibility.md promise.
   */
  readonly purchase?: AuthenticatedAmount | undefined;
  /** The AReq's deviceChannel: app (threeDSecure.deviceInfo sent) or browser. */
  readonly channel?: DeviceChannel | undefined;
  /** The shopper's browser (customer.browser.*, customer.ip): a real directory's browser AReq carries it. */
  readonly browser?: BrowserData | undefined;
  /**
   * The gateway's address as the shopper's browser reached it (the request's): a real 3DS server's
   * notificationURL, where the browser posts the final CRes. Undefined: the server's own setting.
   */
  readonly gatewayBaseUrl?: string | undefined;
  /** card.expiryMonth/expiryYear: the AReq's cardExpiryDate (YYMM). */
  readonly cardExpiry?: { readonly month: string; readonly year: string } | undefined;
  /** The app channel's SDK data (threeDSecure.deviceInfo parsed), for a server that reads it (readsDeviceInfo). */
  readonly sdk?: SdkDeviceInfo | undefined;
  /**
   * A 3DS Requestor Initiated authentication (deviceChannel 03): the shopper is absent, so no
   * challenge is possible. Absent: the app or browser channel.
   */
  readonly requestorInitiated?: RequestorInitiated | undefined;
  /**
   * The caller can run the 3DS Method through the gateway's method page (a payment with a way
   * back): a real 3DS server then answers `method` for a card whose ACS has a method URL, instead
   * of sending the AReq at once. Absent: the AReq goes at once (threeDSCompInd N for such a card).
   */
  readonly methodPage?: boolean | undefined;
  /** The 3DS Method ran (or timed out): the AReq goes in its transaction with its threeDSCompInd. */
  readonly methodDone?: { readonly threeDSServerTransID: string; readonly completed: 'Y' | 'N' } | undefined;
}

/** What a 3RI AReq says besides the payment: its threeRIInd and the earlier authentication it rests on. */
export interface RequestorInitiated {
  /** EMV threeRIInd (01 recurring, 02 instalment, 06 split/delayed shipment, 11 other payment). */
  readonly indicator: string;
  /** threeDSRequestorPriorAuthenticationInfo, where the gateway has the earlier authentication. */
  readonly prior?: Readonly<Record<string, string>> | undefined;
}

/** The browser fields of a browser-channel AReq, as the payment request names them. */
export interface BrowserData {
  readonly acceptHeader?: string | undefined;
  readonly language?: string | undefined;
  readonly screenHeight?: string | undefined;
  readonly screenWidth?: string | undefined;
  readonly screenColorDepth?: string | undefined;
  readonly timezone?: string | undefined;
  readonly userAgent?: string | undefined;
  readonly javaEnabled?: boolean | undefined;
  readonly ip?: string | undefined;
  readonly challengeWindow?: string | undefined;
}

/**
 * The directory's answer as a 3DS server gives it. A real server's ARes carries the
 * authentication data itself (eci, authenticationValue, dsTransID, acsTransID): it comes back in
 * `authentication` and the operations take it as it is. The simulated directory leaves it out,
 * and the operations have authenticationData() synthesise it, as before.
 */
export type LookupAnswer = DirectoryLookupAnswer | MethodAnswer;

/** What the directory answered (an ARes, or the simulation's answer). */
export type DirectoryLookupAnswer = DirectoryAnswer & {
  readonly authentication?: AuthenticationData | undefined;
  /** A real 3DS server's challenge (ARes transStatus C): what the CReq, the RReq and the final CRes are checked against. */
  readonly challenge?: ChallengeSession | undefined;
};

/**
 * Not an answer of the directory yet: the card's ACS has a 3DS Method URL, so the shopper's browser
 * runs the method first (the gateway's method page) and the AReq goes afterwards, in this
 * transaction (DirectoryQuery.methodDone). Only asked for with DirectoryQuery.methodPage.
 */
export interface MethodAnswer {
  readonly kind: 'method';
  readonly method: MethodStart;
  readonly authentication?: undefined;
  readonly challenge?: undefined;
}

export interface MethodStart {
  readonly threeDSServerTransID: string;
  readonly threeDSMethodURL: string;
  /** How long the page waits for the ACS's notification before the AReq says threeDSCompInd N. */
  readonly timeoutMs: number;
}

/**
 * The EMV 3DS transaction of a challenge a real 3DS server started: kept with the redirect (its
 * `resume`), so the ACS's RReq and the browser's final CRes can be matched to it. The simulator's
 * challenges have none.
 */
export interface ChallengeSession {
  readonly threeDSServerTransID: string;
  readonly acsTransID: string;
  readonly dsTransID: string;
  readonly messageVersion: string;
  /** Where the shopper's browser posts the CReq; empty for the app channel, whose SDK finds it in acsSignedContent. */
  readonly acsURL: string;
  /** The app channel's challenge: what the SDK needs to start it (the ARes's fields). */
  readonly app?: AppChallengeSession | undefined;
}

/** The ARes's fields an app challenge starts with (EMV 3DS 2.2, 6.2.2: the SDK's ChallengeParameters). */
export interface AppChallengeSession {
  readonly acsSignedContent: string;
  readonly acsReferenceNumber: string;
  readonly sdkTransID?: string | undefined;
}

/** The authentication data a result carries into the payment and its answer (ECI, CAVV, ids). */
export interface AuthenticationData {
  readonly status: AuthenticationStatus;
  readonly eci: string;
  readonly verificationId?: string;
  readonly dsTransactionId: string;
  readonly acsTransactionId: string;
  readonly version: string;
  readonly challengeMandatedIndicator?: 'Y' | 'N';
  readonly transactionStatusReason?: string;
}

/** What the ACS page needs to know to start a challenge. */
export interface ChallengeStart {
  readonly gatewayBaseUrl: string;
  /** The redirect's id: the ACS sends the shopper back with it. */
  readonly reference: string;
  readonly dsTransactionId: string;
  readonly acsTransactionId: string;
  readonly challengeWindowSize?: string | undefined;
  /** A real 3DS server's challenge: the CReq goes to its ACS. */
  readonly session?: ChallengeSession | undefined;
}

/**
 * What the mobile SDK needs to run an app-based challenge itself (EMV 3-D Secure ARes fields for
 * deviceChannel 01): no browser redirect; the SDK shows the ACS's native screens.
 */
export type AppChallenge = Readonly<Record<string, string>>;

/**
 * The 3-D Secure server the gateway authenticates with (issue 15): the directory lookup, the
 * challenge redirect, and the authentication data a result carries. The test system has the
 * simulated directory and ACS; the live system has none until a real 3DS server is connected,
 * so there an entity that requires 3-D Secure is refused (000.400.104) rather than simulated.
 */
export interface ThreeDSecureServer {
  readonly id: string;
  /**
   * The server sends the app channel's AReq from the SDK's data: threeDSecure.deviceInfo must be
   * the SDK's authRequestParams (domain/three-d-secure/device-info.ts), else the request is
   * refused. The simulator reads nothing of it.
   */
  readonly readsDeviceInfo?: boolean;
  /** The server sends 3RI AReqs (deviceChannel 03); without it a 3RI is not asked for (the MIT goes on unauthenticated, as before). */
  readonly requestorInitiated?: boolean;
  lookup(query: DirectoryQuery): Promise<LookupAnswer>;
  challengeRedirect(start: ChallengeStart): RedirectInstruction;
  /** The app channel's challenge: the data the SDK starts its challenge with, in the payment answer's threeDSecure block. */
  appChallenge(start: ChallengeStart): AppChallenge;
  authenticationData(pan: string, status: AuthenticationData['status'], ids: { readonly dsTransactionId: string; readonly acsTransactionId: string }, challenged: boolean): AuthenticationData;
  /**
   * The server that authenticates this payment, where the choice depends on it (3DS server routes:
   * emv3ds-server/routed.ts); undefined: none serves it (on the live system: 000.400.104). Absent:
   * this server serves every payment.
   */
  forPayment?(routing: ThreeDSecureRouting): Promise<ThreeDSecureServer | undefined>;
}

/** What a 3DS server route is chosen by, as an acquirer route is. */
export interface ThreeDSecureRouting {
  readonly entityId: string;
  readonly brand: string;
  readonly currency: string;
}
