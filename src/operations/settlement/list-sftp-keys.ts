import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { publicKeysOf } from '../../storage/repositories/sftp-keys.js';
import type { Queryable } from '../../storage/port.js';

/**
 * The OpenSSH public keys that may fetch a merchant's files: what `npm run sftp` asks the
 * running gateway on the embedded database, which admits one process. Public keys only; an id
 * that is no merchant's has none.
 */
export async function listSftpKeys(deps: { readonly storage: Queryable }, merchantId: string): Promise<{ merchantId: string; keys: string[] }> {
  if (!ENTITY_ID_PATTERN.test(merchantId)) return { merchantId, keys: [] };
  return { merchantId, keys: await publicKeysOf(deps.storage, merchantId) };
}
