import type { FastifyInstance } from 'fastify';
import type { GatewayMetrics } from '../../observability/metrics.js';

/** OpenTelemetry's rule: methods outside the known set share one value, so a scanner cannot grow the series. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'CONNECT', 'TRACE']);

/**
 * http.server.request.duration for every answered request, by method, route template (never the
 * path: ids and card-like digits stay out of the labels) and status code. A request no route
 * matched is counted under the route "unmatched".
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: GatewayMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observe(
      'httpRequestDuration',
      {
        http_request_method: KNOWN_METHODS.has(request.method) ? request.method : '_OTHER',
        http_route: request.routeOptions.url ?? 'unmatched',
        http_response_status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
