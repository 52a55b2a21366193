import { createHash } from 'node:crypto';
import type { ThreeDsServerSettings } from '../../config/three-ds-server-settings.js';
import { chooseRoute } from '../../domain/routing.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { RedirectInstruction } from '../connector.js';
import type { OpenRoute, RouteTable } from '../route-table.js';
import { UNREADABLE_CREDENTIALS } from '../router.js';
import type { ChallengeStart, DirectoryQuery, LookupAnswer, ThreeDSecureRouting, ThreeDSecureServer } from '../three-d-secure.js';
import { directoryTransport, type DirectoryTransport } from './mtls-fetch.js';
import { isThreeDsServerRoute, ROUTE_DEFAULTS, THREE_DS_SERVER_ROUTE_KIND, threeDsRouteSettings } from './route-settings.js';
import { appChallengeOf, CHALLENGE_START_PATH, challengeRedirectOf, createEmv3dsServer, type Emv3dsServerDeps } from './server.js';

/** Which credentials a route's connector was built with; the digest only, never the values, is kept beside it. */
function credentialsDigest(route: OpenRoute): string {
  const entries = Object.entries(route.credentials).sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256').update(JSON.stringify([route.credentialsUnreadable === true, entries])).digest('hex');
}

export interface RoutedThreeDSecureDeps {
  readonly system: 'test' | 'live';
  /** The connector routes (the router's table: cached, invalidated by the admin operations). */
  readonly routes: RouteTable;
  readonly merchantOf: (entityId: string) => Promise<string | null>;
  /**
   * The server of the payments no 3DS server route serves: THREE_DS_SERVER_DS_URL's, else the
   * test system's simulation; none on a live system without that setting.
   */
  readonly fallback?: ThreeDSecureServer | undefined;
  /** THREE_DS_SERVER_* where set: what a route's credentials do not name; else ROUTE_DEFAULTS. */
  readonly base?: ThreeDsServerSettings | undefined;
  /** What every route's connector shares (clock, ids, the gateway's addresses, the logger). */
  readonly server: Omit<Emv3dsServerDeps, 'settings' | 'fetch'>;
}

interface RouteServer {
  /** The credentials' digest when built: a rotation builds a new one (new certificate, new connections). */
  readonly version: string;
  readonly server: ThreeDSecureServer;
  readonly transport: DirectoryTransport;
}

/**
 * The gateway's 3-D Secure server as routes choose it (docs/three-d-secure.md, "3DS server
 * routes"): the payment's 3DS server route (connector emv3ds-server, matched by system, entity,
 * brand and currency as acquirer routes are) gives the directory, the AReq's fields and the mutual
 * TLS material; a payment no such route serves goes to the fallback. One connector and one set of
 * kept-alive TLS connections per route, rebuilt when its credentials are rotated.
 */
export class RoutedThreeDSecureServer implements ThreeDSecureServer {
  readonly #deps: RoutedThreeDSecureDeps;
  readonly #servers = new Map<string, RouteServer>();
  /** The route table hands out the same route objects until it reads the table again: the digest is taken once per reading. */
  readonly #byRoute = new WeakMap<OpenRoute, RouteServer>();

  constructor(deps: RoutedThreeDSecureDeps) {
    this.#deps = deps;
  }

  /** The fallback's id where there is one, so the gateway's 3DS server reads as before without routes. */
  get id(): string {
    return this.#deps.fallback?.id ?? THREE_DS_SERVER_ROUTE_KIND;
  }

  async forPayment(routing: ThreeDSecureRouting): Promise<ThreeDSecureServer | undefined> {
    const { system, fallback } = this.#deps;
    const routes = (await this.#deps.routes.all()).filter(isThreeDsServerRoute);
    if (routes.length === 0) return fallback;
    const choice = chooseRoute(routes, { system, entityId: routing.entityId, merchantId: await this.#deps.merchantOf(routing.entityId), brand: routing.brand, currency: routing.currency });
    if (!choice.ok) return fallback;
    return this.#serverOf(choice.route);
  }

  #serverOf(route: OpenRoute): ThreeDSecureServer {
    const seen = this.#byRoute.get(route);
    if (seen) return seen.server;
    const version = credentialsDigest(route);
    const kept = this.#servers.get(route.id);
    if (kept && kept.version === version) {
      this.#byRoute.set(route, kept);
      return kept.server;
    }
    const base = this.#deps.base ?? { ...ROUTE_DEFAULTS, areqUrl: '' };
    const settings = route.credentialsUnreadable ? undefined : threeDsRouteSettings(route.credentials, base);
    // "Request has not been sent" for the gateway's own misconfiguration, as for an acquirer route.
    if (!settings) throw new GatewayError(UNREADABLE_CREDENTIALS);
    // Rotated: AReqs already sent on the old connections finish within the timeout, then they end.
    if (kept) setTimeout(() => kept.transport.close(), settings.settings.timeoutMs).unref();
    const transport = directoryTransport(settings.tls);
    const server = createEmv3dsServer({ ...this.#deps.server, settings: settings.settings, fetch: transport.fetch });
    const built = { version, server, transport };
    this.#servers.set(route.id, built);
    this.#byRoute.set(route, built);
    return server;
  }

  lookup(query: DirectoryQuery): Promise<LookupAnswer> {
    return this.#fallback().lookup(query);
  }

  /** A protocol challenge (its ARes session) leads to the gateway's challenge page, whichever route's it is (server.ts). */
  challengeRedirect(start: ChallengeStart): RedirectInstruction {
    if (!start.session) return this.#fallback().challengeRedirect(start);
    challengeRedirectOf(start);
    return { url: `${start.gatewayBaseUrl}${CHALLENGE_START_PATH}/${start.reference}`, method: 'GET', parameters: [] };
  }

  /** A protocol app challenge (its ARes session) is answered from the session, whichever route's it is (server.ts). */
  appChallenge(start: ChallengeStart) {
    if (start.session?.app) return appChallengeOf(start);
    return this.#fallback().appChallenge(start);
  }

  authenticationData(...args: Parameters<ThreeDSecureServer['authenticationData']>) {
    return this.#fallback().authenticationData(...args);
  }

  close(): void {
    for (const kept of this.#servers.values()) kept.transport.close();
    this.#servers.clear();
    // The default's own mutual TLS connections (server.ts), where it has them.
    (this.#deps.fallback as { close?: () => void } | undefined)?.close?.();
  }

  #fallback(): ThreeDSecureServer {
    if (!this.#deps.fallback) throw new Error('no 3-D Secure server serves this payment: ask forPayment() first');
    return this.#deps.fallback;
  }
}
