/**
 * Which route serves a payment: the operator's routes as plain data in, one route or the
 * catalogue code of the refusal out. A route names an entity (a channel, a merchant, or any),
 * a brand (or any) and a currency (or any); the most specific match wins, entity first, then
 * brand, then currency, so a merchant-wide route never hides a channel's own.
 */
export interface RouteRecord {
  readonly id: string;
  readonly system: 'test' | 'live';
  readonly entityId: string | null;
  readonly paymentBrand: string | null;
  readonly currency: string | null;
  readonly connectorId: string;
  readonly disabledAt: Date | null;
  /** The operator's fallback for payments this route's acquirer did not process at all; none when absent. */
  readonly fallbackRouteId?: string | null;
}

export interface RouteSelection {
  readonly system: 'test' | 'live';
  readonly entityId: string;
  /** The channel's merchant; null for a merchant. */
  readonly merchantId: string | null;
  readonly brand: string;
  readonly currency: string;
}

/** No route for the brand: "not configured for this payment method". */
export const NO_ROUTE_FOR_BRAND = '600.200.201';
/** Routes for the brand, none for the currency: "not configured for this currency or sub type". */
export const NO_ROUTE_FOR_CURRENCY = '600.200.500';

export type RouteChoice<R extends RouteRecord> = { readonly ok: true; readonly route: R } | { readonly ok: false; readonly code: string };

function entityRank(route: RouteRecord, selection: RouteSelection): number {
  if (route.entityId === null) return 0;
  if (route.entityId === selection.entityId) return 2;
  if (route.entityId === selection.merchantId) return 1;
  return -1;
}

function specificity(route: RouteRecord, selection: RouteSelection): number {
  const entity = entityRank(route, selection);
  if (entity < 0) return -1;
  return entity * 4 + (route.paymentBrand === null ? 0 : 2) + (route.currency === null ? 0 : 1);
}

export function chooseRoute<R extends RouteRecord>(routes: readonly R[], selection: RouteSelection): RouteChoice<R> {
  const usable = routes.filter(
    (route) =>
      route.disabledAt === null &&
      route.system === selection.system &&
      entityRank(route, selection) >= 0 &&
      (route.paymentBrand === null || route.paymentBrand === selection.brand),
  );
  let best: R | undefined;
  let bestScore = -1;
  for (const route of usable) {
    if (route.currency !== null && route.currency !== selection.currency) continue;
    const score = specificity(route, selection);
    if (score > bestScore) [best, bestScore] = [route, score];
  }
  if (best) return { ok: true, route: best };
  return { ok: false, code: usable.length > 0 ? NO_ROUTE_FOR_CURRENCY : NO_ROUTE_FOR_BRAND };
}

export interface EntityOfReport {
  readonly id: string;
  readonly name: string;
  readonly merchantId: string | null;
}

export interface UnroutedEntity {
  readonly entityId: string;
  readonly name: string;
  /** Brands some route serves (null: a route serves every brand, but only some currencies). */
  readonly routedBrands: readonly string[];
  /** Currencies some route serves; empty with routedBrands empty: every payment is refused. */
  readonly routedCurrencies: readonly string[];
}

/**
 * The entities whose payments are not all routed on a system: no route at all, or routes for
 * some brands or currencies only. For the start-up log of the live system.
 */
export function unroutedEntities(entities: readonly EntityOfReport[], routes: readonly RouteRecord[], system: 'test' | 'live'): UnroutedEntity[] {
  const report: UnroutedEntity[] = [];
  for (const entity of entities) {
    const selection = { system, entityId: entity.id, merchantId: entity.merchantId };
    const serving = routes.filter((route) => route.disabledAt === null && route.system === system && entityRank(route, { ...selection, brand: '', currency: '' }) >= 0);
    if (serving.some((route) => route.paymentBrand === null && route.currency === null)) continue;
    const brands = [...new Set(serving.flatMap((route) => (route.paymentBrand === null ? [] : [route.paymentBrand])))].sort();
    const currencies = [...new Set(serving.flatMap((route) => (route.currency === null ? [] : [route.currency])))].sort();
    report.push({ entityId: entity.id, name: entity.name, routedBrands: brands, routedCurrencies: currencies });
  }
  return report;
}
