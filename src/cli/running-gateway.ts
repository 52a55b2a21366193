import type { Config } from '../config/load-config.js';
import { adminUrlOf, localAdminToken, runningGateway } from '../config/runtime-file.js';
import { adminApiCaller, AdminApiError } from './admin-api-call.js';

export type AdminCall = ReturnType<typeof adminApiCaller>;

/**
 * The /admin API of the gateway that holds the embedded database, when one runs: only one process
 * may open a PGlite folder, so every command goes through it then. Undefined on PostgreSQL (the
 * commands work on the database itself) or when no gateway holds DATA_DIR.
 */
export function runningGatewayAdmin(config: Config): AdminCall | undefined {
  if (config.databaseUrl !== undefined) return undefined;
  const running = runningGateway(config.dataDir);
  if (!running) return undefined;
  const token = config.adminToken ?? localAdminToken(config.dataDir, false);
  if (!token) throw new AdminApiError(`a gateway holds ${config.dataDir}; set ADMIN_TOKEN to reach it`);
  return adminApiCaller(adminUrlOf(running), token);
}
