import { loadVaultConfig } from '../config/vault-config.js';
import { randomIds, systemClock } from '../domain/ids.js';
import { addRiskListEntry, listRiskEntries, removeRiskListEntry, riskRulesHistory, setRiskRules } from '../operations/risk/configure-risk.js';
import { transactionRisk } from '../operations/risk/transaction-risk.js';
import { masterKeyRingOf, openVault } from '../operations/registrations/open-vault.js';
import { openMigratedStorage } from '../storage/open-storage.js';
import type { Config } from '../config/load-config.js';
import type { RiskPort } from './risk-commands.js';
import { withAudit, withVaultInTransaction } from '../operations/audit/audited.js';
import { riskListChange, riskListImported, riskRulesChange, riskRulesRestored } from '../operations/audit/admin-changes.js';
import { importRiskList } from '../operations/risk/import-risk-list.js';
import { restoreRiskRules } from '../operations/risk/restore-risk-rules.js';
import { cliActor } from './cli-actor.js';

/** The commands on the database itself (PostgreSQL, or an embedded database no gateway holds). */
export async function openRiskDirect(config: Config, env: Readonly<Record<string, string | undefined>>): Promise<RiskPort> {
  const storage = await openMigratedStorage(config);
  const base = { storage, clock: systemClock, ids: randomIds };
  const deps = { ...base, vault: openVault(base, masterKeyRingOf(loadVaultConfig(env, config))) };
  const actor = cliActor();
  return {
    setRules: (entityId, rules, changedBy) => withAudit(deps, actor, (scoped) => setRiskRules(scoped, { entityId, rules, changedBy }), riskRulesChange(entityId)),
    showRules: (entityId) => riskRulesHistory(deps, entityId),
    restoreRules: (entityId, version, changedBy) => withAudit(deps, actor, (scoped) => restoreRiskRules(scoped, { entityId, version, changedBy }), riskRulesRestored(entityId)),
    importList: (input) => withAudit(deps, actor, (scoped) => importRiskList(withVaultInTransaction(scoped), input), riskListImported(input)),
    add: (input) => withAudit(deps, actor, (scoped) => addRiskListEntry(withVaultInTransaction(scoped), input), riskListChange('risk.lists.add', input)),
    remove: (input) => withAudit(deps, actor, (scoped) => removeRiskListEntry(withVaultInTransaction(scoped), input), riskListChange('risk.lists.remove', input)),
    list: (entityId, list) => listRiskEntries(deps, entityId, list),
    transaction: (id) => transactionRisk(deps, id),
    close: () => storage.close(),
  };
}
