import type { Queryable } from '../../storage/port.js';
import type { AuditedChange } from './audited.js';

/**
 * How each operator change is described in the audit log, shared by the admin API and the
 * command line, which wrap the same operations (withAudit): one description, two callers.
 */

export function entityCreated(input: object): AuditedChange<{ entityId: string; kind: string; tokenId: string }> {
  return {
    action: 'entities.create',
    target: (result) => ({ kind: 'entity', id: result.entityId }),
    entityId: (result) => result.entityId,
    after: (result) => ({ ...input, kind: result.kind, tokenId: result.tokenId }),
  };
}

export function tokenCreated(): AuditedChange<{ tokenId: string; entityId: string }> {
  return {
    action: 'credentials.create',
    target: (result) => ({ kind: 'access-token', id: result.tokenId }),
    entityId: (result) => result.entityId,
    after: (result) => ({ tokenId: result.tokenId, entityId: result.entityId }),
  };
}

async function entityOfToken(db: Queryable, tokenId: string): Promise<string | null> {
  const result = await db.query<{ entity_id: string }>('SELECT entity_id FROM access_tokens WHERE id = $1', [tokenId]);
  return result.rows[0]?.entity_id.trim() ?? null;
}

export function tokenRevoked(tokenId: string): AuditedChange<unknown> {
  return {
    action: 'credentials.revoke',
    target: () => ({ kind: 'access-token', id: tokenId }),
    entityId: (_result, db) => entityOfToken(db, tokenId),
    after: () => ({ revoked: true }),
  };
}

/** A route's change: the route as its view shows it (credential names, never their values). */
export function routeChange(action: string): AuditedChange<{ routeId: string; entityId: string | null }> {
  return {
    action,
    target: (route) => ({ kind: 'route', id: route.routeId }),
    entityId: (route) => route.entityId,
    after: (route) => route,
  };
}

export function riskRulesChange(entityId: string): AuditedChange<{ version: number; rules: unknown }> {
  return {
    action: 'risk.rules',
    target: (result) => ({ kind: 'risk-rules', id: `${entityId}/v${result.version}` }),
    entityId: () => entityId,
    after: (result) => ({ version: result.version, rules: result.rules }),
  };
}

/** An earlier rule set version made current again: the new version, the one it restored, its rules. */
export function riskRulesRestored(entityId: string): AuditedChange<{ version: number; restoredFrom: number; rules: unknown }> {
  return {
    action: 'risk.rules.restore',
    target: (result) => ({ kind: 'risk-rules', id: `${entityId}/v${result.version}` }),
    entityId: () => entityId,
    after: (result) => ({ version: result.version, restoredFrom: result.restoredFrom, rules: result.rules }),
  };
}

/** A CSV import into a list: how many entries, and each in its shown form (a card as BIN and last four). */
export function riskListImported(input: { entityId: string; list: string }): AuditedChange<{ added: number; alreadyListed: number; entries: readonly string[] }> {
  return {
    action: 'risk.lists.import',
    target: () => ({ kind: 'risk-list', id: `${input.entityId}/${input.list}` }),
    entityId: () => input.entityId,
    after: (result) => ({ added: result.added, alreadyListed: result.alreadyListed, entries: result.entries }),
  };
}

/** A list entry's change: the entry in its shown form (a card as BIN and last four), never the value sent. */
export function riskListChange(action: 'risk.lists.add' | 'risk.lists.remove', input: { entityId: string; list: string }): AuditedChange<object> {
  return {
    action,
    target: () => ({ kind: 'risk-list', id: `${input.entityId}/${input.list}` }),
    entityId: () => input.entityId,
    after: (result) => result,
  };
}

/** A merchant's settlement setting (SFTP key, push target, fees): the operation's answer, secrets masked by name. */
export function settlementSettingChange(action: string, merchantId: string): AuditedChange<unknown> {
  return {
    action,
    target: () => ({ kind: 'entity', id: merchantId }),
    entityId: () => merchantId,
    after: (result) => result,
  };
}

/** A failed background job run again (its error as the queue held it, card-number-like digits masked). */
export function jobRetried(before: (db: Queryable) => Promise<unknown>): AuditedChange<{ jobId: string; kind: string }> {
  return {
    action: 'jobs.retry',
    target: (result) => ({ kind: 'job', id: result.jobId }),
    entityId: () => null,
    before,
    after: (result) => ({ kind: result.kind, runAgain: true }),
  };
}

/** Every failed job of one kind run again. */
export function jobsOfKindRetried(): AuditedChange<{ kind: string; retried: number }> {
  return {
    action: 'jobs.retry-kind',
    target: (result) => ({ kind: 'job-kind', id: result.kind }),
    entityId: () => null,
    after: (result) => result,
  };
}
