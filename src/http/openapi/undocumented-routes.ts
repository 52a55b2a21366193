/**
 * Routes the gateway serves on purpose without a place in /openapi.json, each with the reason.
 * test/integration/openapi-coverage.test.ts fails on a registered route that is neither documented
 * nor listed here, and on an entry here that no app registers any more. HEAD routes (Fastify adds
 * one for every GET) are never listed.
 */
export const UNDOCUMENTED_ROUTES: readonly { readonly route: string; readonly reason: string }[] = [
  { route: 'GET /favicon.ico', reason: 'answers browsers asking for an icon on the pages the gateway serves with 204; no client calls it' },
  ...['payment', 'registration'].map((purpose) => ({
    route: `OPTIONS /v1/checkouts/{id}/${purpose}`,
    reason: "the CORS preflight a browser sends before the widget's post; no client calls it",
  })),
  ...['POST /checkouts', 'POST /checkouts/{id}', 'GET /checkouts/{id}/payment', 'POST /checkouts/{id}/payment', 'OPTIONS /checkouts/{id}/payment', 'GET /checkouts/{id}/registration',
    'POST /checkouts/{id}/registration', 'OPTIONS /checkouts/{id}/registration', 'GET /checkouts/{id}/widget'].map((route) => ({
    route,
    reason: 'the same operation as under /v1/checkouts, without the version prefix, for OPPWA clients and widget scripts that call it so (src/http/routes/checkouts.ts); documented once, under /v1',
  })),
  ...['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js'].map((name) => ({
    route: `GET /docs/assets/${name}`,
    reason: 'a file of the /docs page (the renderer and its start-up script); fetched by the page, not an API',
  })),
];

/**
 * Whole trees of routes that are not an API: the console's pages and forms (docs/console.md), for
 * people in a browser, each checked for access by the console itself.
 */
export const UNDOCUMENTED_PREFIXES: readonly { readonly prefix: string; readonly reason: string }[] = [
  { prefix: '/console', reason: "the console's pages and forms for people (docs/console.md); not an API" },
];

/** Whether a route ("GET /path") is one of the trees above. */
export function underUndocumentedPrefix(route: string): boolean {
  const path = route.slice(route.indexOf(' ') + 1);
  return UNDOCUMENTED_PREFIXES.some(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`));
}
