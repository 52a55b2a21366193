import { chooseRoute } from '../domain/routing.js';
import type { LifecyclePolicy } from '../domain/lifecycle/policy.js';
import { GatewayError } from '../results/gateway-error.js';
import type { Connector, ConnectorCredentials, GatewaySystem, TestMode } from './connector.js';
import { callConnector, type CallOptions, type NormalizedOutcome } from './normalize-outcome.js';
import { noObserver, type ConnectorOperation, type Observer } from '../observability/observer.js';
import type { ConnectorRegistry } from './registry.js';
import type { RouteTable } from './route-table.js';
import { isThreeDsServerRoute } from './emv3ds-server/route-settings.js';
import { tracedConnector } from '../observability/tracing/traced-connector.js';

/** The connector that serves a payment, the route that chose it, and that route's credentials. */
export interface RoutedConnector {
  readonly connector: Connector;
  /** null: the test system's simulator or test platform, which need no route. */
  readonly routeId: string | null;
  readonly credentials: ConnectorCredentials;
  /**
   * The route the operator allows a new payment to fall back to when this one's acquirer did not
   * process it at all (ConnectorOutcome.notProcessed); one level, never after a possible approval.
   */
  readonly fallback?: RoutedConnector | undefined;
}

export interface PaymentRouting {
  readonly entityId: string;
  readonly brand: string;
  readonly currency: string;
  readonly testMode: TestMode | null;
}

export interface ConnectorRouterOptions {
  readonly system: GatewaySystem;
  readonly registry: ConnectorRegistry;
  readonly routes: RouteTable;
  /** The merchant a channel belongs to (null for a merchant): routes of the merchant serve its channels. */
  readonly merchantOf: (entityId: string) => Promise<string | null>;
  /** Serves the test system's requests with testMode INTERNAL or none. */
  readonly internalTestConnectorId: string;
  /** Serves testMode EXTERNAL on the test system where no test route says otherwise. */
  readonly externalTestConnectorId: string;
  /** Where every connector call and what came of it is reported (PaymentDeps.observe); nothing when absent. */
  readonly observer?: Observer | undefined;
}

const NO_CREDENTIALS: ConnectorCredentials = Object.freeze({});
/** A route whose credentials the vault cannot open: misconfiguration, nothing was sent. */
export const UNREADABLE_CREDENTIALS = '900.100.310';

/**
 * Picks the connector of a new payment and finds it again for the payment's follow-ups. The live
 * system routes only by the operator's routes (connector_routes) and only to connectors that
 * really reach an acquirer: a payment without a route is refused before anything is written, so
 * the simulator can never answer a live payment.
 */
export class ConnectorRouter {
  constructor(private readonly options: ConnectorRouterOptions) {}

  get system(): GatewaySystem {
    return this.options.system;
  }

  get registry(): ConnectorRegistry {
    return this.options.registry;
  }

  /**
   * The payment deps' observer. It travels with the connectors so that everything that holds them
   * (the payment operations, the status checks and expiry jobs of a worker) reports to one place.
   */
  get observe(): Observer {
    return this.options.observer ?? noObserver;
  }

  /**
   * Asks a connector: the guarded call (timeout, normalisation: callConnector), reported as one
   * connector call by connector and operation, whatever came of it (a timeout, a throw).
   */
  call(connector: Pick<Connector, 'id'>, operation: ConnectorOperation, call: () => Promise<unknown>, options: CallOptions): Promise<NormalizedOutcome> {
    const observe = this.options.observer;
    if (!observe) return callConnector(call, options);
    const report = (outcome: Parameters<Observer['connectorCall']>[0]['outcome'], durationSeconds: number) =>
      observe.connectorCall({ connector: connector.id, operation, outcome, durationSeconds });
    return callConnector(call, { ...options, report });
  }

  /** The routes as this process holds them; the admin operations invalidate it after a change. */
  get routes(): RouteTable {
    return this.options.routes;
  }

  policyFor(connectorId: string): LifecyclePolicy {
    return this.options.registry.policyFor(connectorId);
  }

  /** The connector of a new PA, DB or CD; a GatewayError (600.200.*) when none may serve it. */
  async forPayment(payment: PaymentRouting): Promise<RoutedConnector> {
    const { system, registry } = this.options;
    if (system === 'test' && payment.testMode !== 'EXTERNAL') return this.builtIn(this.options.internalTestConnectorId);
    // A 3DS server route chooses a directory, not an acquirer (emv3ds-server/routed.ts).
    const choice = chooseRoute((await this.options.routes.all()).filter((route) => !isThreeDsServerRoute(route)), {
      system,
      entityId: payment.entityId,
      merchantId: await this.options.merchantOf(payment.entityId),
      brand: payment.brand,
      currency: payment.currency,
    });
    if (!choice.ok) {
      if (system === 'test') return this.builtIn(this.options.externalTestConnectorId);
      throw new GatewayError(choice.code);
    }
    const connector = this.connectorById(choice.route.connectorId);
    // A route to a connector this build lacks, or a simulator on the live system (written into the
    // table by hand: the admin API refuses both), serves nothing.
    if (!connector || (system === 'live' && !connector.liveCapable)) throw new GatewayError('600.200.500');
    // "Request to acquirer has not been sent" because of the gateway's own misconfiguration.
    if (choice.route.credentialsUnreadable) throw new GatewayError(UNREADABLE_CREDENTIALS);
    const fallback = choice.route.fallbackRouteId ? await this.fallbackOf(choice.route.fallbackRouteId) : undefined;
    return { connector, routeId: choice.route.id, credentials: choice.route.credentials, ...(fallback ? { fallback } : {}) };
  }

  /** A fallback that cannot serve (disabled, unreadable, a simulator on the live system) is no fallback. */
  private async fallbackOf(routeId: string): Promise<RoutedConnector | undefined> {
    const route = await this.options.routes.byId(routeId);
    if (!route || route.disabledAt !== null || route.credentialsUnreadable || route.system !== this.options.system || isThreeDsServerRoute(route)) return undefined;
    const connector = this.connectorById(route.connectorId);
    if (!connector || (this.options.system === 'live' && !connector.liveCapable)) return undefined;
    return { connector, routeId: route.id, credentials: route.credentials };
  }

  /** The connector, route and current credentials of a stored transaction, for its captures, refunds, reversals and status. */
  async forTransaction(transaction: { readonly connectorId: string; readonly routeId: string | null }): Promise<RoutedConnector | undefined> {
    const connector = this.connectorById(transaction.connectorId);
    if (!connector) return undefined;
    if (this.options.system === 'live' && !connector.liveCapable) return undefined;
    if (transaction.routeId === null) return { connector, routeId: null, credentials: NO_CREDENTIALS };
    const route = await this.options.routes.byId(transaction.routeId);
    if (!route || route.credentialsUnreadable) return undefined;
    return { connector, routeId: route.id, credentials: route.credentials };
  }

  /** The registry's connector, seen through its traces when tracing is on. */
  private connectorById(connectorId: string): Connector | undefined {
    return tracedConnector(this.options.registry.connectorById(connectorId));
  }

  private builtIn(connectorId: string): RoutedConnector {
    const connector = this.connectorById(connectorId);
    if (!connector) throw new Error(`the test system's connector ${connectorId} is not configured`);
    return { connector, routeId: null, credentials: NO_CREDENTIALS };
  }
}
