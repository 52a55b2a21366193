import { actorLabel, type Actor } from '../../domain/access/actor.js';
import { auditValue, type AuditEntry } from '../../domain/audit/audit-entry.js';
import type { Clock } from '../../domain/ids.js';
import { appendAuditEntry } from '../../storage/repositories/audit-log.js';
import type { Queryable } from '../../storage/port.js';

/** A change as its caller describes it; before/after hold what changed (secrets are masked by name). */
export interface Change {
  readonly actor: Actor;
  /** The permission's name where one applies (payments.refund), else a verb of the admin API (entities.create). */
  readonly action: string;
  readonly target: { readonly kind: string; readonly id: string };
  /** Whose data changed: the merchant (its people read their entries), or null for the operator's own settings. */
  readonly merchantId: string | null;
  readonly before?: unknown;
  readonly after?: unknown;
}

/**
 * Records a change in the audit log, in the transaction `tx` that makes the change: both commit or
 * neither does. Every caller (console, admin API, command line) passes who acts.
 */
export function recordChange(tx: Queryable, clock: Clock, change: Change): Promise<AuditEntry> {
  const { actor } = change;
  return appendAuditEntry(tx, {
    at: clock.now(),
    actorKind: actor.kind,
    actor: actorLabel(actor),
    actorUserId: actor.kind === 'user' ? actor.userId : null,
    role: actor.kind === 'user' ? actor.role : actor.kind === 'admin-api' ? 'admin-token' : actor.kind === 'cli' ? 'command-line' : null,
    address: actor.kind === 'user' || actor.kind === 'admin-api' ? actor.address : actor.kind === 'cli' ? actor.host : null,
    merchantId: change.merchantId,
    action: change.action,
    targetKind: change.target.kind,
    targetId: change.target.id,
    before: auditValue(change.before),
    after: auditValue(change.after),
  });
}
