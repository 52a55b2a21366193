import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Throw-away certificates for mutual TLS tests, made with the openssl command into a temporary
 * folder that is removed at once (no key is ever committed): a CA, a server certificate for
 * localhost and a client certificate it issued, and another CA with a client certificate of its
 * own (the wrong one). Undefined where openssl is missing, so the tests skip instead of failing.
 */
export interface Pki {
  readonly ca: string;
  readonly server: { readonly cert: string; readonly key: string };
  readonly client: { readonly cert: string; readonly key: string };
  readonly otherCa: string;
  readonly otherClient: { readonly cert: string; readonly key: string };
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export function makePki(): Pki | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'three-ds-mtls-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  const ca = (name: string) => openssl('req', '-x509', ...EC, '-keyout', file(`${name}.key`), '-out', file(`${name}.pem`), '-days', '1', '-subj', `/CN=${name}`);
  const issue = (name: string, caName: string, subject: string, extensions: string) => {
    writeFileSync(file(`${name}.ext`), extensions);
    openssl('req', '-new', ...EC, '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`), '-subj', subject);
    openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file(`${caName}.pem`), '-CAkey', file(`${caName}.key`), '-CAcreateserial', '-out', file(`${name}.pem`), '-days', '1', '-extfile', file(`${name}.ext`));
    return { cert: readFileSync(file(`${name}.pem`), 'utf8'), key: readFileSync(file(`${name}.key`), 'utf8') };
  };
  try {
    ca('test-ds-ca');
    ca('other-ca');
    const server = issue('ds', 'test-ds-ca', '/CN=localhost', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
    const client = issue('client', 'test-ds-ca', '/CN=gateway-3ds-server', 'extendedKeyUsage=clientAuth\n');
    const otherClient = issue('other-client', 'other-ca', '/CN=gateway-3ds-server', 'extendedKeyUsage=clientAuth\n');
    return { ca: readFileSync(file('test-ds-ca.pem'), 'utf8'), server, client, otherCa: readFileSync(file('other-ca.pem'), 'utf8'), otherClient };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
