import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, scratchDataDir, startNodeProcess, type NodeProcess } from './node-process.js';

export interface StartCommand {
  readonly nodeFlags: readonly string[];
  /** The built entry point, relative to the repository root. */
  readonly script: string;
}

/**
 * How `npm start` runs the gateway, read from package.json (`npm run -s build && exec node <flags>
 * <script>`), so that benchmarks and end-to-end tests run the gateway exactly as it is started.
 * The build step is theirs to run first (`npm test`, `npm run bench` do): a missing script says so.
 */
export function startCommand(): StartCommand {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  // `exec`: the shell npm runs becomes node, so npm's SIGTERM reaches the gateway.
  const words = scripts['start']!.split('&&').at(-1)!.trim().replace(/^exec\s+/, '').split(/\s+/);
  if (words[0] !== 'node' || words.length < 2) throw new Error(`package.json's start script does not end with "node … <script>": ${scripts['start']}`);
  const script = words.at(-1)!;
  if (!existsSync(join(ROOT, script))) throw new Error(`${script} is missing: run \`npm run build\` first`);
  return { nodeFlags: words.slice(1, -1), script };
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

/** A real gateway process, started as `npm start` starts it, ready once /health answers 200 (the database is reachable). */
export function startGatewayProcess(options: GatewayOptions): Promise<NodeProcess> {
  const start = startCommand();
  return startNodeProcess({
    script: start.script,
    readyPath: '/health',
    nodeArgs: [...start.nodeFlags, ...(options.nodeArgs ?? [])],
    env: {
      DATABASE_URL: options.databaseUrl ?? '',
      DATA_DIR: options.dataDir ?? scratchDataDir(),
      DATABASE_POOL_SIZE: String(options.poolSize ?? 10),
      LOG_LEVEL: 'warn',
      THROTTLE_MAX_REQUESTS: UNTHROTTLED,
      AUTH_FAILURE_MAX_PER_WINDOW: UNTHROTTLED,
      REDIS_URL: '',
      // A stop between runs needs no load balancer to notice it.
      SHUTDOWN_DRAIN_MS: '0',
      ...options.env,
    },
  });
}
