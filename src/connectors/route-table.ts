import type { Clock } from '../domain/ids.js';
import type { SealedSecret } from '../domain/vault/index.js';
import type { Queryable } from '../storage/port.js';
import { listRoutes, type StoredRoute } from '../storage/repositories/connector-routes.js';
import type { ConnectorCredentials } from './connector.js';

/** A route with its credentials opened, as the router hands it to a connector call. */
export interface OpenRoute extends Omit<StoredRoute, 'sealedCredentials'> {
  readonly credentials: ConnectorCredentials;
  /**
   * The vault could not open the credentials (a master key missing from the configuration, a
   * damaged row): the route serves nothing, while every other route goes on serving.
   */
  readonly credentialsUnreadable?: true;
}

export interface RouteTableDeps {
  readonly storage: Queryable;
  readonly clock: Clock;
  /** Opens a route's sealed credentials (the vault, with the route's own context). */
  readonly openCredentials: (routeId: string, sealed: SealedSecret) => Promise<Record<string, string>>;
}

/**
 * Routes change seldom and are read on every live payment, so each process keeps them all in
 * memory and reads them again after ROUTE_CACHE_MS: a change made through another process (a new
 * route, rotated credentials) takes effect everywhere within that time, and at once in the
 * process that made it (invalidate). Payments on the test system's simulator never look here.
 */
export const ROUTE_CACHE_MS = 5_000;

export class RouteTable {
  #routes: readonly OpenRoute[] = [];
  #loadedAtMs = Number.NEGATIVE_INFINITY;
  #loading: Promise<readonly OpenRoute[]> | undefined;
  /** Bumped by invalidate(), so that a read begun before a change does not count as fresh. */
  #generation = 0;

  constructor(private readonly deps: RouteTableDeps) {}

  async all(): Promise<readonly OpenRoute[]> {
    if (this.deps.clock.now().getTime() - this.#loadedAtMs < ROUTE_CACHE_MS) return this.#routes;
    // One reload at a time, however many payments ask for it.
    if (!this.#loading) {
      const loading = this.load().finally(() => {
        if (this.#loading === loading) this.#loading = undefined;
      });
      this.#loading = loading;
    }
    return this.#loading;
  }

  async byId(routeId: string): Promise<OpenRoute | undefined> {
    const found = (await this.all()).find((route) => route.id === routeId);
    if (found) return found;
    // A route made in another process moments ago: read again rather than refuse its payment.
    this.invalidate();
    return (await this.all()).find((route) => route.id === routeId);
  }

  invalidate(): void {
    this.#generation += 1;
    this.#loadedAtMs = Number.NEGATIVE_INFINITY;
    this.#loading = undefined;
  }

  private async load(): Promise<readonly OpenRoute[]> {
    const generation = this.#generation;
    const startedAt = this.deps.clock.now().getTime();
    const stored = await listRoutes(this.deps.storage);
    const opened = await Promise.all(stored.map((route) => this.open(route)));
    if (generation === this.#generation) {
      this.#routes = opened;
      this.#loadedAtMs = startedAt;
    }
    return opened;
  }

  private async open(route: StoredRoute): Promise<OpenRoute> {
    const { sealedCredentials, ...rest } = route;
    if (!sealedCredentials) return Object.freeze({ ...rest, credentials: Object.freeze({}) });
    try {
      return Object.freeze({ ...rest, credentials: Object.freeze(await this.deps.openCredentials(route.id, sealedCredentials)) });
    } catch {
      return Object.freeze({ ...rest, credentials: Object.freeze({}), credentialsUnreadable: true as const });
    }
  }
}
