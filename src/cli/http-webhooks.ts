import { AdminApiError } from './http-admin.js';
import type { WebhookPort } from './webhook-port.js';

type Form = Record<string, string | undefined>;

/** Talks to a running gateway's /admin/webhooks API (the way into a PGlite folder it holds). */
export function httpWebhooks(baseUrl: string, adminToken: string): WebhookPort {
  async function call<T>(method: string, path: string, form?: Form): Promise<T> {
    const body = form ? new URLSearchParams(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined)).toString() : undefined;
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body !== undefined ? { body } : {}),
    });
    const json = (await response.json()) as Record<string, unknown> & { result?: { code: string; description: string; parameterErrors?: unknown } };
    if (!response.ok) {
      const result = json.result;
      throw new AdminApiError(`${result?.code ?? response.status} ${result?.description ?? ''} ${JSON.stringify(result?.parameterErrors ?? '')}`);
    }
    const { result: _r, buildNumber: _b, timestamp: _t, ndc: _n, ...rest } = json;
    return rest as T;
  }
  const webhook = (id: string) => `/admin/webhooks/${encodeURIComponent(id)}`;
  return {
    createWebhook: (input) => call('POST', '/admin/webhooks', { entity: input.entityId, url: input.url }),
    listWebhooks: async (entityId) =>
      (await call<{ webhooks: never[] }>('GET', `/admin/webhooks${entityId ? `?entity=${encodeURIComponent(entityId)}` : ''}`)).webhooks,
    activateWebhook: (id) => call('POST', `${webhook(id)}/activate`),
    deactivateWebhook: (id) => call('POST', `${webhook(id)}/deactivate`),
    deleteWebhook: (id) => call('DELETE', webhook(id)),
    testWebhook: (id) => call('POST', `${webhook(id)}/test`),
    listAttempts: async (id, limit) =>
      (await call<{ attempts: never[] }>('GET', `${webhook(id)}/attempts${limit ? `?limit=${limit}` : ''}`)).attempts,
    resendDelivery: (id) => call('POST', `/admin/webhooks/deliveries/${encodeURIComponent(id)}/resend`),
    close: async () => undefined,
  };
}
