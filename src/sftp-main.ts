import { ConfigError, loadConfig, type Config } from './config/load-config.js';
import { jsonLogger } from './jobs/json-logger.js';
import { startConfiguredSftp } from './sftp/sftp-server.js';
import { openMigratedStorage } from './storage/open-storage.js';
import { publicKeysOf } from './storage/repositories/sftp-keys.js';

/**
 * `npm run sftp`: the built-in SFTP server in a process of its own, so that file transfers never
 * share the payments' event loop, memory or file descriptors (set SFTP_IN_GATEWAY=false for the
 * gateways). It reads the merchants' keys from PostgreSQL; the embedded database admits one
 * process, so there the gateway serves SFTP itself.
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

async function main(): Promise<void> {
  const config = readConfigOrExit();
  if (config.settlement.sftp === undefined) exitWith('npm run sftp needs SFTP_PORT (the port the SFTP server listens on)');
  if (config.databaseUrl === undefined) exitWith('npm run sftp needs DATABASE_URL (PostgreSQL); on the embedded database `npm start` serves SFTP (SFTP_PORT)');
  const logger = jsonLogger(config.logLevel, process.stdout, { name: 'sftp' });
  const storage = await openMigratedStorage(config);
  const sftp = await startConfiguredSftp(config.settlement, { publicKeysOf: (id) => publicKeysOf(storage, id) }, logger);
  // The last line of a start: supervisors and tests wait for it.
  logger.info({ sftpPort: sftp!.port, host: config.settlement.sftp.host }, 'sftp server ready');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await sftp?.close();
    await storage.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

await main();
