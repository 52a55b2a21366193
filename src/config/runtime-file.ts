import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Only one process may open an embedded (PGlite) data folder. The running gateway records itself
 * in DATA_DIR/gateway.json so a second gateway refuses to start and the command line knows to go
 * through the running gateway's administration API instead of opening the files.
 */
export interface RuntimeRecord {
  readonly pid: number;
  readonly url: string;
  /** The administration listener (ADMIN_PORT); absent when /admin is served at url. */
  readonly adminUrl?: string;
}

/** Where the command line reaches the running gateway's /admin API. */
export function adminUrlOf(record: RuntimeRecord): string {
  return record.adminUrl ?? record.url;
}

const RUNTIME_FILE = 'gateway.json';
const ADMIN_TOKEN_FILE = 'admin-token';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The gateway that holds dataDir, if one is running. */
export function runningGateway(dataDir: string): RuntimeRecord | undefined {
  const file = join(dataDir, RUNTIME_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as RuntimeRecord;
    return typeof record.pid === 'number' && record.pid !== process.pid && isAlive(record.pid) ? record : undefined;
  } catch {
    return undefined;
  }
}

export function writeRuntimeRecord(dataDir: string, record: RuntimeRecord): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, RUNTIME_FILE), JSON.stringify(record), { mode: 0o600 });
}

export function removeRuntimeRecord(dataDir: string): void {
  rmSync(join(dataDir, RUNTIME_FILE), { force: true });
}

/**
 * Without ADMIN_TOKEN the gateway makes one and keeps it in DATA_DIR/admin-token (mode 600),
 * readable by the operator's command line on the same machine and by nobody else.
 */
export function localAdminToken(dataDir: string, create: boolean): string | undefined {
  const file = join(dataDir, ADMIN_TOKEN_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  if (!create) return undefined;
  mkdirSync(dataDir, { recursive: true });
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, token, { mode: 0o600 });
  return token;
}
