import type { Config } from '../config/load-config.js';
import { runningGatewayAdmin } from './running-gateway.js';
import { UsageError } from './usage.js';

export interface AuditVerdictOutput {
  readonly ok: boolean;
  readonly entries: number;
  readonly headHash?: string;
  readonly brokenAt?: string;
  readonly reason?: string;
}

async function verifyDirectly(config: Config): Promise<AuditVerdictOutput> {
  const { openMigratedStorage } = await import('../storage/open-storage.js');
  const { verifyAuditChain } = await import('../operations/audit/verify-audit-chain.js');
  const { auditVerdictOutput } = await import('../operations/audit/audit-verdict-output.js');
  const storage = await openMigratedStorage(config);
  try {
    return auditVerdictOutput(await verifyAuditChain(storage));
  } finally {
    await storage.close();
  }
}

/** `audit verify`: on the database itself, or through the gateway that holds the embedded one. */
export async function runAuditCommand(config: Config, command: string): Promise<AuditVerdictOutput> {
  if (command !== 'audit verify') throw new UsageError(`unknown command: ${command}`);
  const admin = runningGatewayAdmin(config);
  const verdict = admin ? await admin<AuditVerdictOutput>('GET', '/admin/audit/verify') : await verifyDirectly(config);
  // A broken chain is a failure of the command: scripts and cron jobs see it in the exit code.
  if (!verdict.ok) process.exitCode = 1;
  return verdict;
}
