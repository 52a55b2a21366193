import { parseLocalReceivers } from '../../domain/local-receivers.js';
import { findEntity } from '../../storage/repositories/entities.js';
import { findLocalReceivers, updateLocalReceivers } from '../../storage/repositories/local-receivers.js';
import type { OperationDeps } from '../deps.js';
import type { TargetRulesDeps } from './ports.js';
import { entityNotFound, invalidParameter } from './webhook-errors.js';

export interface LocalReceiversSetting {
  readonly entityId: string;
  /** host:port, each a loopback host; empty: none. */
  readonly localReceivers: readonly string[];
}

function refuseOnLiveSystem(deps: TargetRulesDeps, value: string): void {
  if (!deps.webhookTargets.localReceiversAllowed) throw invalidParameter('receivers', value, 'local receivers exist on the test system only');
}

/**
 * Sets the local receivers an entity's webhooks may be sent to on the test system (replacing the
 * list; '' clears it). Read at each delivery, so a change applies at once, with no restart.
 */
export async function setLocalReceivers(deps: OperationDeps & TargetRulesDeps, entityId: string, text: string): Promise<LocalReceiversSetting> {
  refuseOnLiveSystem(deps, text);
  const parsed = parseLocalReceivers(text);
  if (!parsed.ok) throw invalidParameter('receivers', text, parsed.message);
  if (!(await updateLocalReceivers(deps.storage, entityId, parsed.receivers))) throw entityNotFound(entityId);
  return { entityId, localReceivers: parsed.receivers };
}

export async function showLocalReceivers(deps: OperationDeps & TargetRulesDeps, entityId: string): Promise<LocalReceiversSetting> {
  refuseOnLiveSystem(deps, '');
  if (!(await findEntity(deps.storage, entityId))) throw entityNotFound(entityId);
  return { entityId, localReceivers: await findLocalReceivers(deps.storage, entityId) };
}
