import type { SftpKeyStore } from './sftp-server.js';

/** A gateway that does not answer a key lookup in this long fails the login (the client may retry). */
export const KEY_LOOKUP_TIMEOUT_MS = 5_000;

/**
 * The merchants' keys asked of the running gateway's /admin API (ADMIN_TOKEN): how `npm run sftp`
 * reads them on the embedded database, which only the gateway's process may open.
 */
export function gatewayKeyStore(adminUrl: string, adminToken: string): SftpKeyStore {
  return {
    async publicKeysOf(merchantId) {
      const response = await fetch(new URL(`/admin/entities/${encodeURIComponent(merchantId)}/sftp-keys`, adminUrl), {
        headers: { authorization: `Bearer ${adminToken}` },
        signal: AbortSignal.timeout(KEY_LOOKUP_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`the gateway answered ${response.status} to a key lookup`);
      return ((await response.json()) as { keys: string[] }).keys;
    },
  };
}
