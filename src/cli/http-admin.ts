import type { AdminPort } from './admin-port.js';

export class AdminApiError extends Error {}

/** Talks to a running gateway's /admin API: the only safe way into a PGlite folder it holds. */
export function httpAdmin(baseUrl: string, adminToken: string): AdminPort {
  async function call<T>(method: string, path: string, form?: Record<string, string | undefined>): Promise<T> {
    const body = form
      ? new URLSearchParams(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined)).toString()
      : undefined;
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body !== undefined ? { body } : {}),
    });
    const json = (await response.json()) as T & { result?: { code: string; description: string; parameterErrors?: unknown } };
    if (!response.ok) {
      const result = json.result;
      throw new AdminApiError(`${result?.code ?? response.status} ${result?.description ?? ''} ${JSON.stringify(result?.parameterErrors ?? '')}`);
    }
    return json;
  }
  const strip = <T extends object>(json: T) => {
    const { result: _r, buildNumber: _b, timestamp: _t, ndc: _n, ...rest } = json as Record<string, unknown>;
    return rest as unknown as T;
  };
  return {
    createEntity: async (input) => strip(await call('POST', '/admin/entities', { name: input.name, merchant: input.merchantId })),
    listEntities: async () => (await call<{ entities: never[] }>('GET', '/admin/entities')).entities,
    createToken: async (entityId) => strip(await call('POST', '/admin/tokens', { entity: entityId })),
    revokeToken: async (tokenId) => strip(await call('DELETE', `/admin/tokens/${encodeURIComponent(tokenId)}`)),
    close: async () => undefined,
  };
}
