import { basename } from 'node:path';
import { posix } from 'node:path';
import { Client as FtpClient } from 'basic-ftp';
import SftpClient from 'ssh2-sftp-client';
import { checkedPushAddress, type ResolveHost } from './push-address.js';
import { parsePushTarget, type PushTarget } from '../../domain/settlement/push-target.js';
import type { Vault } from '../../domain/vault/index.js';
import type { WebhookTargetRules } from '../../domain/webhook-url.js';
import type { Queryable } from '../../storage/port.js';
import { findPushTarget } from '../../storage/repositories/settlement-push-targets.js';

/** A push (login and transfer) that takes longer is abandoned; the file stays on the built-in SFTP server. */
export const PUSH_TIMEOUT_MS = 60_000;

export interface PushDeps {
  readonly storage: Queryable;
  readonly vault: Vault;
  /** WEBHOOK_ALLOWED_ADDRESSES and the live system's TLS rule apply to merchants' servers too. */
  readonly targets: WebhookTargetRules;
  readonly resolve?: ResolveHost | undefined;
  /** Defaults to PUSH_TIMEOUT_MS; tests shorten it. */
  readonly timeoutMs?: number | undefined;
}

export const pushContext = (merchantId: string): string => `settlement-push:${merchantId}`;

/**
 * The whole transfer, not only the login, within the deadline: a server that stops answering in
 * the middle of a WRITE would otherwise hold the daily run (and its connection) forever.
 */
async function withinDeadline<T>(timeoutMs: number, work: Promise<T>, abandon: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandon();
      reject(new Error(`push abandoned after ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function uploadSftp(target: PushTarget, address: string, password: string, file: string, timeoutMs: number): Promise<void> {
  const client = new SftpClient();
  // ssh2-sftp-client's own end() waits for the server's goodbye; a stalled server never says it.
  const abandon = () => (client as unknown as { client: { destroy(): void } }).client.destroy();
  const transfer = (async () => {
    await client.connect({ host: address, port: target.port, username: target.username, password, readyTimeout: timeoutMs });
    await client.put(file, posix.join(target.directory, basename(file)));
  })();
  try {
    await withinDeadline(timeoutMs, transfer, abandon);
  } finally {
    transfer.catch(() => undefined);
    await withinDeadline(timeoutMs, client.end(), abandon).catch(() => undefined);
  }
}

async function uploadFtp(target: PushTarget, address: string, password: string, file: string, timeoutMs: number): Promise<void> {
  const client = new FtpClient(timeoutMs);
  try {
    // ftps: explicit TLS, its certificate checked against the name the merchant gave.
    await withinDeadline(timeoutMs, (async () => {
      await client.access({ host: address, port: target.port, user: target.username, password, secure: target.protocol === 'ftps', secureOptions: { servername: target.host } });
      await client.uploadFrom(file, posix.join(target.directory, basename(file)));
    })(), () => client.close());
  } finally {
    client.close();
  }
}

/**
 * Pushes a merchant's reconciliation file to its own server, when it registered one: the password
 * opened from the vault only for the call, the host's addresses checked (public or allow-listed)
 * and the connection made to the checked address. Answers false when the merchant has no target.
 */
export async function pushFile(deps: PushDeps, merchantId: string, file: string): Promise<boolean> {
  const stored = await findPushTarget(deps.storage, merchantId);
  if (!stored) return false;
  const target = parsePushTarget(stored.url, deps.targets);
  if ('problem' in target) throw new Error(`push target refused: ${target.problem}`);
  const address = await checkedPushAddress(target.host, deps.targets, deps.resolve);
  const { password = '' } = await deps.vault.open(pushContext(merchantId), stored.sealedPassword);
  const timeoutMs = deps.timeoutMs ?? PUSH_TIMEOUT_MS;
  if (target.protocol === 'sftp') await uploadSftp(target, address, password, file, timeoutMs);
  else await uploadFtp(target, address, password, file, timeoutMs);
  return true;
}
