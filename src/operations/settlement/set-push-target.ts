import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { parsePushTarget, pushTargetUrl } from '../../domain/settlement/push-target.js';
import type { Vault } from '../../domain/vault/index.js';
import type { WebhookTargetRules } from '../../domain/webhook-url.js';
import { GatewayError } from '../../results/gateway-error.js';
import { findEntity } from '../../storage/repositories/entities.js';
import { upsertPushTarget } from '../../storage/repositories/settlement-push-targets.js';
import type { OperationDeps } from '../deps.js';
import { pushContext } from './push-file.js';

function invalid(name: string, value: string, message: string): GatewayError {
  return new GatewayError('200.300.404', { parameterErrors: [{ name, value: value.slice(0, 64), message }] });
}

/** Registers (or replaces) the server a merchant's reconciliation files are pushed to; the password is sealed, never shown again. */
export async function setPushTarget(
  deps: OperationDeps & { readonly vault: Vault; readonly targets: WebhookTargetRules },
  input: { readonly merchantId: string; readonly url: string; readonly password: string },
): Promise<{ merchantId: string; url: string }> {
  if (!ENTITY_ID_PATTERN.test(input.merchantId)) throw invalid('merchant', input.merchantId, 'must be a merchant entity id');
  const target = parsePushTarget(input.url, deps.targets);
  // The URL is echoed only without its user-info part: a password put there by mistake stays unseen.
  if ('problem' in target) throw invalid('url', input.url.replace(/\/\/[^@/]*@/, '//…@'), target.problem);
  if (input.password === '') throw invalid('password', '', 'is required');
  const merchant = await findEntity(deps.storage, input.merchantId);
  if (!merchant || merchant.kind !== 'merchant') throw invalid('merchant', input.merchantId, 'no merchant entity has this id');
  const url = pushTargetUrl(target);
  const sealedPassword = await deps.vault.seal(pushContext(input.merchantId), { password: input.password });
  await upsertPushTarget(deps.storage, { merchantId: input.merchantId, url, sealedPassword }, deps.clock.now());
  return { merchantId: input.merchantId, url };
}
