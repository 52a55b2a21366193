import { createHash } from 'node:crypto';

/** An OpenSSH public key as a page lists it: its type and the fingerprint `ssh-keygen -l` prints. */
export interface SshKeySummary {
  readonly type: string;
  /** `SHA256:` and the unpadded base64 of the SHA-256 of the key blob, as OpenSSH prints it. */
  readonly fingerprint: string;
}

/**
 * The type and SHA-256 fingerprint of a stored public key line (`ssh-ed25519 AAAA… [comment]`).
 * A person recognises a key by the fingerprint their own `ssh-keygen -lf key.pub` shows, so the
 * page never needs to show the whole key. Answers undefined for a line that is no public key.
 */
export function sshKeySummary(publicKeyLine: string): SshKeySummary | undefined {
  const [type, blob] = publicKeyLine.trim().split(/\s+/);
  if (!type || !blob || !/^[a-z][a-z0-9@.-]*$/.test(type) || !/^[A-Za-z0-9+/]+={0,2}$/.test(blob)) return undefined;
  const digest = createHash('sha256').update(Buffer.from(blob, 'base64')).digest('base64').replace(/=+$/, '');
  return { type, fingerprint: `SHA256:${digest}` };
}
