import ssh2 from 'ssh2';
import type { Client as SshClient, SFTPWrapper } from 'ssh2';
import { readableEd25519KeyPair } from '../../src/sftp/ed25519-key.js';

const { Client, utils } = ssh2;

/** A merchant's key pair as the gateway stores it (OpenSSH public line) and as a client holds it. */
export function merchantKeyPair(): { publicKey: string; privateKey: string } {
  const pair = readableEd25519KeyPair();
  return { publicKey: pair.public, privateKey: pair.private };
}

export interface SftpSession {
  readonly ssh: SshClient;
  readonly sftp: SFTPWrapper;
  close(): void;
}

/** Logs in as the merchant and opens its SFTP channel; rejects with the server's refusal. */
export function connectSftp(port: number, username: string, privateKey: string): Promise<SftpSession> {
  return new Promise((resolve, reject) => {
    const ssh = new Client();
    ssh.once('error', reject);
    ssh.once('close', () => reject(new Error('connection closed before the SFTP channel opened')));
    ssh.once('ready', () => ssh.sftp((error, sftp) => (error ? reject(error) : resolve({ ssh, sftp, close: () => ssh.end() }))));
    ssh.connect({ host: '127.0.0.1', port, username, privateKey, readyTimeout: 30_000 });
  });
}

/** OPEN for reading: the handle, or the SFTP status code the server answered with. */
export function openForReading(sftp: SFTPWrapper, path: string): Promise<{ handle: Buffer } | { status: number }> {
  return new Promise((resolve) => sftp.open(path, 'r', (error, handle) => resolve(error ? { status: (error as { code?: number }).code ?? -1 } : { handle })));
}

export function closeHandle(sftp: SFTPWrapper, handle: Buffer): Promise<void> {
  return new Promise((resolve, reject) => sftp.close(handle, (error) => (error ? reject(error) : resolve())));
}
