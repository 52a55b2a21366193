import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { sshKeySummary } from '../../domain/settlement/ssh-key-fingerprint.js';
import { GatewayError } from '../../results/gateway-error.js';
import { deleteSftpKey } from '../../storage/repositories/sftp-keys.js';
import type { OperationDeps } from '../deps.js';

function noSuchKey(name: string, value: string): GatewayError {
  return new GatewayError('200.300.406', { httpStatus: 404, parameterErrors: [{ name, value: value.slice(0, 64), message: `no SFTP key of this merchant has this ${name === 'key' ? 'id' : 'merchant'}` }] });
}

/**
 * Takes a key's right to fetch the merchant's files away. The SFTP server asks for the keys at
 * every login (never a cached copy), so the next login with it is refused; a session already open
 * runs to its end. A key of another merchant answers as one that does not exist (404).
 */
export async function removeSftpKey(deps: Pick<OperationDeps, 'storage'>, merchantId: string, keyId: string): Promise<{ keyId: string; merchantId: string; type: string; fingerprint: string }> {
  if (!ENTITY_ID_PATTERN.test(merchantId)) throw noSuchKey('merchant', merchantId);
  if (!ENTITY_ID_PATTERN.test(keyId)) throw noSuchKey('key', keyId);
  const removed = await deleteSftpKey(deps.storage, merchantId, keyId);
  if (!removed) throw noSuchKey('key', keyId);
  const summary = sshKeySummary(removed.publicKey);
  return { keyId, merchantId, type: summary?.type ?? '', fingerprint: summary?.fingerprint ?? '' };
}
