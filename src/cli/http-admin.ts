import { adminApiCaller } from './admin-api-call.js';
import type { AdminPort } from './admin-port.js';

export { AdminApiError } from './admin-api-call.js';

/** Talks to a running gateway's /admin API: the only safe way into a PGlite folder it holds. */
export function httpAdmin(baseUrl: string, adminToken: string): AdminPort {
  const call = adminApiCaller(baseUrl, adminToken);
  return {
    createEntity: (input) => call('POST', '/admin/entities', { name: input.name, merchant: input.merchantId, kind: input.kind, parent: input.parentId }),
    listEntities: async () => (await call<{ entities: never[] }>('GET', '/admin/entities')).entities,
    createToken: (entityId) => call('POST', '/admin/tokens', { entity: entityId }),
    revokeToken: (tokenId) => call('DELETE', `/admin/tokens/${encodeURIComponent(tokenId)}`),
    setLegacyAuth: (entityId, enabled) => call('POST', `/admin/entities/${encodeURIComponent(entityId)}/legacy-auth`, { enabled: String(enabled) }),
    setUnknownParameters: (entityId, mode) => call('PUT', `/admin/entities/${encodeURIComponent(entityId)}/unknown-parameters`, { mode }),
    setThreeDSecure: (entityId, requirement) => call('PUT', `/admin/entities/${encodeURIComponent(entityId)}/three-d-secure`, { requirement }),
    setConnectorDetails: (entityId, shown) => call('PUT', `/admin/entities/${encodeURIComponent(entityId)}/connector-details`, { enabled: String(shown) }),
    setBankAccount: (entityId, account) =>
      account === null
        ? call('DELETE', `/admin/entities/${encodeURIComponent(entityId)}/bank-account`)
        : call('PUT', `/admin/entities/${encodeURIComponent(entityId)}/bank-account`, { ...account }),
    close: async () => undefined,
  };
}
