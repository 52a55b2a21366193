/**
 * The SFTP keys' fingerprint is the one `ssh-keygen -lf key.pub` prints (SHA256:, unpadded
 * base64 of the key blob's SHA-256), so a person recognises their key without seeing it whole.
 * The expected values were printed by OpenSSH's ssh-keygen for these very lines.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sshKeySummary } from '../../../src/domain/settlement/ssh-key-fingerprint.js';

const CASES: readonly { line: string; type: string; fingerprint: string }[] = [
  {
    line: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDAPo+Gp/pS5rmEsrXfdKWFMQrHyQVGDLuHUgm1TWcwo finance@shop.example',
    type: 'ssh-ed25519', fingerprint: 'SHA256:YoVUAMdUU/hGSbG5YBQeP95lzQ2sGbXEx6cKYS67sug',
  },
  {
    line: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQCdPF7jCjE58aizf8eI+MZmtv5JiwJre68sn8VZaPDhpYjAW2ykb9db6gPNeax/IlMMYJLeo/Sb7BKAZxgL4SutYjrqIFWkwIJM+E/m+QbVQMuhfkknH2xqZAotnuui9S9l6ZBn5Fh4We48T/F3OlBUZWlcEbS78Ppqx8JqZEXNpw== root@vm',
    type: 'ssh-rsa', fingerprint: 'SHA256:Zh+TTFA90G9o1zUvdGbMuchouNkhkybj2pWcYdUGmho',
  },
];

describe('sshKeySummary', () => {
  for (const c of CASES) {
    it(`gives ${c.type} keys the fingerprint ssh-keygen prints`, () => {
      assert.deepEqual(sshKeySummary(c.line), { type: c.type, fingerprint: c.fingerprint });
    });
  }

  it('ignores the comment and surrounding blanks: the same key has the same fingerprint', () => {
    const [first] = CASES;
    const bare = first!.line.split(' ').slice(0, 2).join(' ');
    assert.deepEqual(sshKeySummary(`  ${bare}\n`), sshKeySummary(first!.line));
  });

  it('answers undefined for a line that is no public key', () => {
    for (const line of ['', 'ssh-ed25519', 'ssh-ed25519 not*base64', '-----BEGIN OPENSSH PRIVATE KEY-----']) assert.equal(sshKeySummary(line), undefined, line);
  });
});
