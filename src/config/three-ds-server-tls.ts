import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readOptional, type Env } from './env-readers.js';

/**
 * Mutual TLS of the gateway-wide default 3DS server (THREE_DS_SERVER_DS_URL): the client
 * certificate and key the connector presents to the directory, and the CA its certificate must
 * chain to, as a 3DS server route's clientCert, clientKey and caCert credentials are
 * (connectors/emv3ds-server/mtls-fetch.ts speaks both). Read once at start; a problem is one line
 * naming the variable and its file, never the file's content.
 */
export interface ThreeDsServerTls {
  readonly cert?: string | undefined;
  readonly key?: string | undefined;
  readonly ca?: string | undefined;
}

export const THREE_DS_SERVER_TLS_VARIABLES = [
  ['THREE_DS_SERVER_CLIENT_CERT_FILE', '(unset)', 'PEM client certificate (with its chain) the default 3DS server presents to the directory server (mutual TLS); with THREE_DS_SERVER_CLIENT_KEY_FILE, and THREE_DS_SERVER_DS_URL (and THREE_DS_SERVER_PREQ_URL) must be https. A 3DS server route presents its own (its clientCert credential), not this one.'],
  ['THREE_DS_SERVER_CLIENT_KEY_FILE', '(unset)', 'PEM private key of THREE_DS_SERVER_CLIENT_CERT_FILE; the gateway refuses to start when it does not match the certificate. Never logged.'],
  ['THREE_DS_SERVER_CA_FILE', '(unset)', 'PEM CA bundle the directory server\'s certificate must chain to (the only trust anchor for it); unset trusts the system\'s CAs.'],
] as const;

function readPemFile(env: Env, name: string, problems: string[]): string | undefined {
  const file = readOptional(env, name);
  if (file === undefined) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    problems.push(`${name}=${JSON.stringify(file)} cannot be read`);
    return undefined;
  }
}

/** The certificate, or a problem that names the variable (a parse error may quote nothing of the file). */
function certificateOf(name: string, pem: string, problems: string[]): X509Certificate | undefined {
  try {
    return new X509Certificate(pem);
  } catch {
    problems.push(`${name} holds no PEM certificate`);
    return undefined;
  }
}

function checkKeyPair(cert: string, key: string, problems: string[]): void {
  const certificate = certificateOf('THREE_DS_SERVER_CLIENT_CERT_FILE', cert, problems);
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    problems.push('THREE_DS_SERVER_CLIENT_KEY_FILE holds no PEM private key (or one protected by a passphrase)');
    return;
  }
  if (certificate && !certificate.checkPrivateKey(privateKey)) problems.push('THREE_DS_SERVER_CLIENT_KEY_FILE does not match the certificate of THREE_DS_SERVER_CLIENT_CERT_FILE');
}

/**
 * The default's TLS material, undefined where none is set. `urls` are the default's directory
 * endpoints (AReq, PReq): a certificate is for https only.
 */
export function collectThreeDsServerTls(env: Env, urls: readonly (string | undefined)[], problems: string[]): ThreeDsServerTls | undefined {
  const certGiven = readOptional(env, 'THREE_DS_SERVER_CLIENT_CERT_FILE') !== undefined;
  const keyGiven = readOptional(env, 'THREE_DS_SERVER_CLIENT_KEY_FILE') !== undefined;
  const caGiven = readOptional(env, 'THREE_DS_SERVER_CA_FILE') !== undefined;
  if (!certGiven && !keyGiven && !caGiven) return undefined;
  if (certGiven !== keyGiven) problems.push('THREE_DS_SERVER_CLIENT_CERT_FILE and THREE_DS_SERVER_CLIENT_KEY_FILE must be set together');
  if (urls[0] === undefined) problems.push('THREE_DS_SERVER_CLIENT_CERT_FILE, THREE_DS_SERVER_CLIENT_KEY_FILE and THREE_DS_SERVER_CA_FILE need THREE_DS_SERVER_DS_URL');
  for (const [i, url] of urls.entries()) {
    if (url?.startsWith('http:')) problems.push(`${i === 0 ? 'THREE_DS_SERVER_DS_URL' : 'THREE_DS_SERVER_PREQ_URL'} must be https with a certificate or CA file`);
  }
  const cert = readPemFile(env, 'THREE_DS_SERVER_CLIENT_CERT_FILE', problems);
  const key = readPemFile(env, 'THREE_DS_SERVER_CLIENT_KEY_FILE', problems);
  const ca = readPemFile(env, 'THREE_DS_SERVER_CA_FILE', problems);
  if (cert !== undefined && key !== undefined) checkKeyPair(cert, key, problems);
  if (ca !== undefined) certificateOf('THREE_DS_SERVER_CA_FILE', ca, problems);
  return Object.freeze({ cert, key, ca });
}
