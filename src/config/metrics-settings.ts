import { ENTITY_ID_PATTERN } from '../domain/ids.js';
import { readBoolean, readInteger, readOptional, type Env } from './env-readers.js';
import { parseAllowList } from '../domain/webhook-address.js';

/** Prometheus metrics (docs/observability.md, "Metrics"). */
export interface MetricsSettings {
  readonly enabled: boolean;
  /** Addresses or CIDR blocks that may scrape /metrics on the public listener without the admin token. */
  readonly allowFrom: readonly string[];
  /** The few entities whose payments are also counted by entity id. */
  readonly entities: ReadonlySet<string>;
  /** `npm run worker`'s own /metrics listener; undefined: none. */
  readonly workerListener?: { readonly host: string; readonly port: number } | undefined;
}

export const METRICS_VARIABLES = [
  ['METRICS_ENABLED', 'true', '`false` turns the Prometheus metrics off: nothing is recorded and /metrics answers 404.'],
  ['METRICS_ALLOW_FROM', '(unset)', 'Comma-separated addresses or CIDR blocks that may read /metrics without the admin token when it is served on the public listener (no ADMIN_PORT). On the admin listener /metrics needs no token.'],
  ['METRICS_ENTITIES', '(unset)', 'Comma-separated entity ids whose payments are also counted by entity (gateway_entity_payments_total); keep it to a few, each adds series.'],
  ['METRICS_PORT', '(unset)', '`npm run worker` only: port of a listener serving the worker\'s /metrics (0 picks a free one); unset: none.'],
  ['METRICS_HOST', '127.0.0.1', 'Address the worker\'s metrics listener binds to (with METRICS_PORT).'],
] as const;

function readList(env: Env, name: string): string[] {
  return (readOptional(env, name) ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
}

export function collectMetricsSettings(env: Env, problems: string[]): MetricsSettings {
  const { ranges: allowFrom, invalid } = parseAllowList(readOptional(env, 'METRICS_ALLOW_FROM') ?? '');
  if (invalid.length > 0) problems.push(`METRICS_ALLOW_FROM must list IP addresses or CIDR blocks (not ${invalid.join(', ')})`);
  const entities = readList(env, 'METRICS_ENTITIES');
  const badEntities = entities.filter((entry) => !ENTITY_ID_PATTERN.test(entry));
  if (badEntities.length > 0) problems.push(`METRICS_ENTITIES must list entity ids (32 lowercase hex digits; not ${badEntities.join(', ')})`);
  const port = readOptional(env, 'METRICS_PORT') === undefined ? undefined : readInteger(env, 'METRICS_PORT', 0, 0, 65_535, problems);
  return Object.freeze({
    enabled: readBoolean(env, 'METRICS_ENABLED', true, problems),
    allowFrom: Object.freeze(allowFrom),
    entities: new Set(entities),
    workerListener: port === undefined ? undefined : Object.freeze({ host: readOptional(env, 'METRICS_HOST') ?? '127.0.0.1', port }),
  });
}
