import type { ThreeDsServerSettings } from '../../config/three-ds-server-settings.js';

/**
 * A 3DS server route (docs/three-d-secure.md, "3DS server routes"): a connector route whose
 * connector is this kind chooses the directory an entity's, brand's and currency's payments are
 * authenticated with, as acquirer routes choose the acquirer. Its credentials, sealed by the vault
 * like an acquirer's, carry the directory's address and the AReq's requestor and merchant fields
 * (as an acquirer route's carry the merchant and terminal ids) and the mutual TLS material: the
 * client certificate and its key, and the CA the directory's certificate must chain to.
 */
export const THREE_DS_SERVER_ROUTE_KIND = 'emv3ds-server';

export function isThreeDsServerRoute(route: { readonly connectorId: string }): boolean {
  return route.connectorId === THREE_DS_SERVER_ROUTE_KIND;
}

/** The credentials that hold PEM text: several lines, and larger than any other credential. */
export const PEM_CREDENTIALS: ReadonlySet<string> = new Set(['clientCert', 'clientKey', 'caCert']);
/** A certificate chain or a CA bundle of a few certificates. */
export const PEM_CREDENTIAL_MAX = 32_768;

/** The route's credential → the setting it replaces, with the check the environment's variable has. */
const FIELDS: readonly (readonly [string, RegExp])[] = [
  ['dsUrl', /^https?:\/\/\S{1,2040}$/],
  // The route's own directory's PReq endpoint (card ranges); not the default's, which may be another directory.
  ['preqUrl', /^https?:\/\/\S{1,2040}$/],
  ['messageVersion', /^2\.(2\.0|3\.1)$/],
  ['serverRefNumber', /^.{1,32}$/],
  ['requestorId', /^.{1,35}$/],
  ['requestorName', /^.{1,40}$/],
  ['requestorUrl', /^https?:\/\/.{1,2040}$/],
  ['acquirerBin', /^\d{1,11}$/],
  ['acquirerMerchantId', /^.{1,35}$/],
  ['mcc', /^\d{4}$/],
  ['merchantCountry', /^\d{3}$/],
];
const KNOWN = new Set([...FIELDS.map(([name]) => name), ...PEM_CREDENTIALS]);
const PEM = /^-----BEGIN [A-Z0-9 ]+-----[\s\S]+-----END [A-Z0-9 ]+-----\s*$/;

/** What the connector presents to the directory over TLS; none of it ever shown or logged. */
export interface RouteTls {
  readonly cert?: string | undefined;
  readonly key?: string | undefined;
  readonly ca?: string | undefined;
}

export interface ThreeDsRouteSettings {
  readonly settings: ThreeDsServerSettings;
  readonly tls: RouteTls;
}

/** The defaults a route's settings start from where the gateway has no THREE_DS_SERVER_DS_URL. */
export const ROUTE_DEFAULTS: Omit<ThreeDsServerSettings, 'areqUrl'> = Object.freeze({
  timeoutMs: 10_000,
  cardRangesRefreshMinutes: 60,
  messageVersion: '2.2.0',
  serverReferenceNumber: 'GATEWAY-3DS-SERVER',
  requestor: { id: 'gateway-requestor', name: 'Payment Gateway', url: 'https://gateway.example' },
  acquirer: { bin: '400000', merchantId: 'GATEWAY-MERCHANT', mcc: '5999', countryCode: '276' },
});

/**
 * Every problem of a route's credentials, by credential name (an empty list: usable). The names
 * are shown back, never the values.
 */
export function threeDsRouteProblems(credentials: Readonly<Record<string, string>>): { readonly name: string; readonly message: string }[] {
  const problems: { name: string; message: string }[] = [];
  for (const name of Object.keys(credentials)) if (!KNOWN.has(name)) problems.push({ name, message: `not a 3DS server route's credential; known: ${[...KNOWN].join(', ')}` });
  if (credentials['dsUrl'] === undefined) problems.push({ name: 'dsUrl', message: 'required: the directory server\'s AReq endpoint (http or https URL)' });
  for (const [name, pattern] of FIELDS) {
    const value = credentials[name];
    if (value !== undefined && !pattern.test(value)) problems.push({ name, message: `must match ${pattern.source}` });
  }
  for (const name of PEM_CREDENTIALS) {
    const value = credentials[name];
    if (value !== undefined && !PEM.test(value)) problems.push({ name, message: 'must be PEM text (-----BEGIN …----- … -----END …-----)' });
  }
  if ((credentials['clientCert'] === undefined) !== (credentials['clientKey'] === undefined)) problems.push({ name: 'clientKey', message: 'clientCert and clientKey go together' });
  const tlsGiven = ['clientCert', 'caCert'].some((name) => credentials[name] !== undefined);
  if (tlsGiven && credentials['dsUrl']?.startsWith('http:')) problems.push({ name: 'dsUrl', message: 'must be https when the route has a certificate' });
  if (tlsGiven && credentials['preqUrl']?.startsWith('http:')) problems.push({ name: 'preqUrl', message: 'must be https when the route has a certificate' });
  return problems;
}

/**
 * A route's settings: its credentials over the base (the gateway's THREE_DS_* settings where set,
 * else ROUTE_DEFAULTS); undefined when the credentials are not usable (the admin API refuses
 * those, so only a hand-written row gets here).
 */
export function threeDsRouteSettings(credentials: Readonly<Record<string, string>>, base: Omit<ThreeDsServerSettings, 'areqUrl'> = ROUTE_DEFAULTS): ThreeDsRouteSettings | undefined {
  if (threeDsRouteProblems(credentials).length > 0) return undefined;
  const c = credentials;
  const settings: ThreeDsServerSettings = Object.freeze({
    areqUrl: c['dsUrl']!,
    timeoutMs: base.timeoutMs,
    ...(c['preqUrl'] !== undefined ? { preqUrl: c['preqUrl'] } : {}),
    cardRangesRefreshMinutes: base.cardRangesRefreshMinutes,
    messageVersion: (c['messageVersion'] as ThreeDsServerSettings['messageVersion'] | undefined) ?? base.messageVersion,
    serverReferenceNumber: c['serverRefNumber'] ?? base.serverReferenceNumber,
    requestor: { id: c['requestorId'] ?? base.requestor.id, name: c['requestorName'] ?? base.requestor.name, url: c['requestorUrl'] ?? base.requestor.url },
    acquirer: {
      bin: c['acquirerBin'] ?? base.acquirer.bin,
      merchantId: c['acquirerMerchantId'] ?? base.acquirer.merchantId,
      mcc: c['mcc'] ?? base.acquirer.mcc,
      countryCode: c['merchantCountry'] ?? base.acquirer.countryCode,
    },
  });
  return { settings, tls: { cert: c['clientCert'], key: c['clientKey'], ca: c['caCert'] } };
}
