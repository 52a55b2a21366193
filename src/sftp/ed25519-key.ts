import ssh2 from 'ssh2';

const { utils } = ssh2;

/** More than enough: each try fails about one time in 250. */
const MAX_TRIES = 20;

/**
 * An ed25519 key pair in OpenSSH form that ssh2 itself can read back. About one key in 250 that
 * ssh2's generateKeyPairSync writes is refused by its own parseKey ("Malformed OpenSSH private
 * key"; 13 of 3,000 on this build): as the SFTP server's host key it would stop the server from
 * ever starting, and in tests it was a flake. So a key is made again until it reads.
 */
export function readableEd25519KeyPair(): { readonly private: string; readonly public: string } {
  for (let tries = 1; ; tries += 1) {
    const pair = utils.generateKeyPairSync('ed25519');
    if (!(utils.parseKey(pair.private) instanceof Error) && !(utils.parseKey(pair.public) instanceof Error)) return pair;
    if (tries >= MAX_TRIES) throw new Error('ssh2 made no readable ed25519 key');
  }
}
