import ssh2 from 'ssh2';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { sshKeySummary } from '../../domain/settlement/ssh-key-fingerprint.js';
import { GatewayError } from '../../results/gateway-error.js';
import { findEntity } from '../../storage/repositories/entities.js';
import { insertSftpKey } from '../../storage/repositories/sftp-keys.js';
import type { OperationDeps } from '../deps.js';

function invalid(name: string, message: string): GatewayError {
  return new GatewayError('200.300.404', { parameterErrors: [{ name, value: '', message }] });
}

/**
 * Lets the holder of an OpenSSH public key fetch a merchant's reconciliation files from the
 * built-in SFTP server (user name: the merchant's entity id). Only a public key is accepted: a
 * private key handed in by mistake is refused, never stored.
 */
export async function addSftpKey(deps: OperationDeps, merchantId: string, publicKeyText: string): Promise<{ keyId: string; merchantId: string; type: string; fingerprint: string }> {
  if (!ENTITY_ID_PATTERN.test(merchantId)) throw invalid('merchant', 'must be a merchant entity id');
  const parsed = ssh2.utils.parseKey(publicKeyText.trim());
  const key = parsed instanceof Error ? undefined : Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || key.isPrivateKey()) throw invalid('key', 'must be one OpenSSH public key (ssh-ed25519 AAAA…, ssh-rsa AAAA…)');
  const merchant = await findEntity(deps.storage, merchantId);
  if (!merchant || merchant.kind !== 'merchant') throw new GatewayError('200.300.406', { httpStatus: 404, parameterErrors: [{ name: 'merchant', value: merchantId, message: 'no merchant entity has this id' }] });
  const keyId = deps.ids.id();
  const publicKey = `${key.type} ${key.getPublicSSH().toString('base64')}`;
  await insertSftpKey(deps.storage, { id: keyId, merchantId, publicKey, createdAt: deps.clock.now() });
  return { keyId, merchantId, type: key.type, fingerprint: sshKeySummary(publicKey)?.fingerprint ?? '' };
}
