import { ConfigError, loadConfig, type Config } from './config/load-config.js';
import { adminUrlOf, localAdminToken, runningGateway } from './config/runtime-file.js';
import { gatewayKeyStore } from './sftp/gateway-key-store.js';
import type { SftpKeyStore } from './sftp/sftp-server.js';
import { jsonLogger } from './jobs/json-logger.js';
import { startConfiguredSftp } from './sftp/sftp-server.js';
import { openMigratedStorage } from './storage/open-storage.js';
import { publicKeysOf } from './storage/repositories/sftp-keys.js';

/**
 * `npm run sftp`: the built-in SFTP server in a process of its own, so that file transfers never
 * share the payments' event loop, memory or file descriptors (set SFTP_IN_GATEWAY=false for the
 * gateways). It reads the merchants' keys from PostgreSQL, or on the embedded database (which
 * admits one process) asks the running gateway's /admin API for them.
 */
function readConfigOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

function exitWith(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** Where logins are checked: the database itself, or the gateway that holds the embedded one. */
async function keyStoreOf(config: Config): Promise<{ keys: SftpKeyStore; close(): Promise<void> }> {
  if (config.databaseUrl !== undefined) {
    const storage = await openMigratedStorage(config);
    return { keys: { publicKeysOf: (id) => publicKeysOf(storage, id) }, close: () => storage.close() };
  }
  const running = runningGateway(config.dataDir);
  if (!running) exitWith(`npm run sftp on the embedded database asks the gateway that holds ${config.dataDir} for the keys: start it first (SFTP_IN_GATEWAY=false npm start)`);
  const token = config.adminToken ?? localAdminToken(config.dataDir, false);
  if (!token) exitWith(`a gateway holds ${config.dataDir}; set ADMIN_TOKEN to reach it`);
  return { keys: gatewayKeyStore(adminUrlOf(running), token), close: async () => undefined };
}

async function main(): Promise<void> {
  const config = readConfigOrExit();
  if (config.settlement.sftp === undefined) exitWith('npm run sftp needs SFTP_PORT (the port the SFTP server listens on)');
  const logger = jsonLogger(config.logLevel, process.stdout, { name: 'sftp' });
  const store = await keyStoreOf(config);
  const sftp = await startConfiguredSftp(config.settlement, store.keys, logger);
  // The last line of a start: supervisors and tests wait for it.
  logger.info({ sftpPort: sftp!.port, host: config.settlement.sftp.host }, 'sftp server ready');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await sftp?.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

await main();
