import { readFileSync } from 'node:fs';
import { paymentDeps } from '../app.js';
import type { Config } from '../config/load-config.js';
import { loadVaultConfig } from '../config/vault-config.js';
import { randomIds, systemClock } from '../domain/ids.js';
import { masterKeyRingOf, openVault } from '../operations/registrations/open-vault.js';
import { addSftpKey } from '../operations/settlement/add-sftp-key.js';
import { pushFile } from '../operations/settlement/push-file.js';
import { runSettlementDay } from '../operations/settlement/run-settlement-day.js';
import { setPushTarget } from '../operations/settlement/set-push-target.js';
import { setSettlementFees } from '../operations/settlement/set-settlement-fees.js';
import { settlementSources } from '../operations/settlement/settlement-sources.js';
import { openMigratedStorage } from '../storage/open-storage.js';
import type { SettlementCommandIo } from './settlement-commands.js';
import { recordCompletedChange, withAudit, withVaultInTransaction } from '../operations/audit/audited.js';
import { settlementSettingChange } from '../operations/audit/admin-changes.js';
import { cliActor } from './cli-actor.js';

/** A settlement command on the database itself (PostgreSQL, or an embedded database no gateway holds). */
export async function runSettlementDirect(config: Config, command: string, input: Record<string, string | undefined>, io: SettlementCommandIo): Promise<unknown> {
  const storage = await openMigratedStorage(config);
  const deps = { storage, clock: systemClock, ids: randomIds };
  const vault = () => openVault(deps, masterKeyRingOf(loadVaultConfig(io.env, config)));
  const targets = config.workers.webhookTargets;
  const actor = cliActor();
  try {
    switch (command) {
      case 'settlement run': {
        const payments = paymentDeps({ ...deps, config, vault: vault() });
        const push = (merchantId: string, path: string) => pushFile({ storage, vault: payments.vault, targets }, merchantId, path);
        const result = await runSettlementDay(deps, settlementSources(payments.connectors.registry), config.settlement.filesDir, input['day']!, push, { rewriteFiles: input['rewriteFiles'] === 'true' });
        await recordCompletedChange(deps, actor, { action: 'settlement.run', target: { kind: 'settlement-day', id: input['day']! }, entityId: null, after: { rewriteFiles: input['rewriteFiles'] === 'true', records: result.ingest.records, files: result.files.length } });
        return result;
      }
      case 'settlement sftp-key': {
        const key = readFileSync(input['keyFile']!, 'utf8');
        return await withAudit(deps, actor, (scoped) => addSftpKey(scoped, input['merchant']!, key), settlementSettingChange('settlement.sftp-key', input['merchant']!));
      }
      case 'settlement push-target': {
        const target = { merchantId: input['merchant']!, url: input['url']!, password: (await io.readSecret()).trim() };
        const withVault = { ...deps, vault: vault() };
        return await withAudit(withVault, actor, (scoped) => setPushTarget({ ...withVaultInTransaction(scoped), targets }, target), settlementSettingChange('settlement.push-target', target.merchantId));
      }
      default: {
        const fees = { merchantId: input['merchant']!, fixed: input['fixed']!, rateBasisPoints: input['rateBp']!, currency: input['currency'] };
        return await withAudit(deps, actor, (scoped) => setSettlementFees(scoped, fees), settlementSettingChange('settlement.fees', fees.merchantId));
      }
    }
  } finally {
    await storage.close();
  }
}
