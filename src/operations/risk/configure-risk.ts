import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { LIST_KINDS, LIST_NAMES, type ListName } from '../../domain/risk/facts.js';
import { parseListKind, parseListValue } from '../../domain/risk/list-values.js';
import { formatRuleSet, parseRuleSet } from '../../domain/risk/parse-rule-set.js';
import type { Vault } from '../../domain/vault/index.js';
import { GatewayError } from '../../results/gateway-error.js';
import { findEntity } from '../../storage/repositories/entities.js';
import { deleteListEntry, insertChange, insertListEntry, insertRuleSet, listChanges, listEntries, listRuleSetVersions } from '../../storage/repositories/risk-config.js';
import type { OperationDeps } from '../deps.js';

export interface RiskConfigDeps extends OperationDeps {
  readonly vault: Vault;
  /** Drops this process's cached rule sets after a change (others follow within seconds). */
  readonly forgetRiskSettings?: (() => void) | undefined;
}

function invalid(name: string, value: string, message: string): GatewayError {
  return new GatewayError('200.300.404', { parameterErrors: [{ name, value: maskPanLikeDigits(value).slice(0, 64), message }] });
}

export async function existingEntity(deps: OperationDeps, entityId: string): Promise<string> {
  if (ENTITY_ID_PATTERN.test(entityId) && (await findEntity(deps.storage, entityId))) return entityId;
  throw new GatewayError('200.300.406', { httpStatus: 404, parameterErrors: [{ name: 'entity', value: maskPanLikeDigits(entityId).slice(0, 64), message: 'no entity has this id' }] });
}

export function listNameOf(text: string): ListName {
  if ((LIST_NAMES as readonly string[]).includes(text)) return text as ListName;
  throw invalid('list', text, `must be one of ${LIST_NAMES.join(', ')}`);
}

/** A new version of the entity's rule set (JSON text, docs/risk.md); every problem named at once. */
export async function setRiskRules(deps: RiskConfigDeps, input: { entityId: string; rules: string; changedBy: string }) {
  const entityId = await existingEntity(deps, input.entityId);
  let json: unknown;
  try {
    json = JSON.parse(input.rules);
  } catch {
    throw invalid('rules', '', 'must be a JSON object (docs/risk.md)');
  }
  const parsed = parseRuleSet(json);
  if ('errors' in parsed) throw new GatewayError('200.300.404', { parameterErrors: parsed.errors.map((message) => ({ name: 'rules', value: '', message })) });
  const stored = formatRuleSet(parsed);
  const now = deps.clock.now();
  const version = await deps.storage.transaction(async (tx) => {
    const v = await insertRuleSet(tx, entityId, stored, input.changedBy, now);
    await insertChange(tx, entityId, input.changedBy, now, 'rules.set', { version: v });
    return v;
  });
  deps.forgetRiskSettings?.();
  return { entityId, version, rules: stored, changedBy: input.changedBy, changedAt: now.toISOString() };
}

/** The entity's rule set versions (newest first) and the change record. */
export async function riskRulesHistory(deps: OperationDeps, entityId: string) {
  await existingEntity(deps, entityId);
  const versions = await listRuleSetVersions(deps.storage, entityId);
  const changes = await listChanges(deps.storage, entityId);
  return {
    entityId,
    versions: versions.map((v) => ({ version: v.version, rules: v.rules, changedBy: v.changedBy, changedAt: v.changedAt.toISOString() })),
    changes: changes.map((c) => ({ action: c.action, detail: c.detail, changedBy: c.changedBy, changedAt: c.changedAt.toISOString() })),
  };
}

export interface ListChangeInput { entityId: string; list: string; kind: string; value: string; reason?: string | undefined; changedBy: string }

/** The stored form of a list value: card and IBAN by the vault's fingerprint, never the number. */
export async function storedValue(deps: RiskConfigDeps, input: Pick<ListChangeInput, 'kind' | 'value'>) {
  const kind = parseListKind(input.kind);
  if (!kind) throw invalid('kind', input.kind, `must be one of ${LIST_KINDS.join(', ')}`);
  const parsed = parseListValue(kind, input.value);
  if ('error' in parsed) throw invalid('value', input.value, parsed.error);
  const value = parsed.secret ? await deps.vault.fingerprint(parsed.kind, parsed.number) : parsed.value;
  return { kind, value, shown: parsed.shown };
}

export async function addRiskListEntry(deps: RiskConfigDeps, input: ListChangeInput) {
  const entityId = await existingEntity(deps, input.entityId);
  const list = listNameOf(input.list);
  const { kind, value, shown } = await storedValue(deps, input);
  const now = deps.clock.now();
  const added = await deps.storage.transaction(async (tx) => {
    const inserted = await insertListEntry(tx, { entityId, list, kind, value, shown, reason: input.reason ?? null, addedBy: input.changedBy, addedAt: now });
    if (inserted) await insertChange(tx, entityId, input.changedBy, now, `${list}list.add`, { kind, shown, ...(input.reason ? { reason: input.reason } : {}) });
    return inserted;
  });
  deps.forgetRiskSettings?.();
  return { entityId, list, kind, shown, added };
}

export async function removeRiskListEntry(deps: RiskConfigDeps, input: ListChangeInput) {
  const entityId = await existingEntity(deps, input.entityId);
  const list = listNameOf(input.list);
  const { kind, value, shown } = await storedValue(deps, input);
  const now = deps.clock.now();
  const removed = await deps.storage.transaction(async (tx) => {
    const deleted = await deleteListEntry(tx, { entityId, list, kind, value });
    if (deleted) await insertChange(tx, entityId, input.changedBy, now, `${list}list.remove`, { kind, shown });
    return deleted;
  });
  return { entityId, list, kind, shown, removed };
}

export async function listRiskEntries(deps: OperationDeps, entityId: string, listText: string) {
  await existingEntity(deps, entityId);
  const list = listNameOf(listText);
  const entries = await listEntries(deps.storage, entityId, list);
  return { entityId, list, entries: entries.map((e) => ({ kind: e.kind, shown: e.shown, reason: e.reason, addedBy: e.addedBy, addedAt: e.addedAt.toISOString() })) };
}
