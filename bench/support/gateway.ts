import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, startNodeProcess, type NodeProcess } from './node-process.js';

/** The Node.js flags of `npm start` (package.json), so the benchmark runs the gateway as it is started. */
export function startScriptNodeFlags(): string[] {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const words = scripts['start']!.split(/\s+/);
  return words[0] === 'node' ? words.slice(1, words.indexOf('--import')) : [];
}

export interface GatewayOptions {
  /** postgres://… (with search_path) or undefined for the embedded PGlite under dataDir. */
  readonly databaseUrl?: string | undefined;
  readonly dataDir?: string | undefined;
  readonly poolSize?: number | undefined;
  readonly nodeArgs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** Throttling would turn a load test into a test of the throttle; this lifts it far above any rate here. */
const UNTHROTTLED = '10000000';

/** A real gateway process (`src/main.ts`), ready once /health answers 200 (the database is reachable). */
export function startGatewayProcess(options: GatewayOptions): Promise<NodeProcess> {
  return startNodeProcess({
    script: 'src/main.ts',
    readyPath: '/health',
    nodeArgs: [...startScriptNodeFlags(), ...(options.nodeArgs ?? [])],
    env: {
      DATABASE_URL: options.databaseUrl ?? '',
      ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}),
      DATABASE_POOL_SIZE: String(options.poolSize ?? 10),
      LOG_LEVEL: 'warn',
      THROTTLE_MAX_REQUESTS: UNTHROTTLED,
      REDIS_URL: '',
      ...options.env,
    },
  });
}
