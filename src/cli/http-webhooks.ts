import { adminApiCaller } from './admin-api-call.js';
import type { WebhookPort } from './webhook-port.js';

/** Talks to a running gateway's /admin/webhooks API (the way into a PGlite folder it holds). */
export function httpWebhooks(baseUrl: string, adminToken: string): WebhookPort {
  const call = adminApiCaller(baseUrl, adminToken);
  const webhook = (id: string) => `/admin/webhooks/${encodeURIComponent(id)}`;
  const localReceivers = (entityId: string) => `/admin/entities/${encodeURIComponent(entityId)}/webhook-local-receivers`;
  return {
    createWebhook: (input) => call('POST', '/admin/webhooks', { entity: input.entityId, url: input.url, ...(input.types !== undefined ? { types: input.types } : {}) }),
    listWebhooks: async (entityId) =>
      (await call<{ webhooks: never[] }>('GET', `/admin/webhooks${entityId ? `?entity=${encodeURIComponent(entityId)}` : ''}`)).webhooks,
    activateWebhook: (id) => call('POST', `${webhook(id)}/activate`),
    deactivateWebhook: (id) => call('POST', `${webhook(id)}/deactivate`),
    deleteWebhook: (id) => call('DELETE', webhook(id)),
    testWebhook: (id) => call('POST', `${webhook(id)}/test`),
    listAttempts: async (id, limit) =>
      (await call<{ attempts: never[] }>('GET', `${webhook(id)}/attempts${limit ? `?limit=${limit}` : ''}`)).attempts,
    resendDelivery: (id) => call('POST', `/admin/webhooks/deliveries/${encodeURIComponent(id)}/resend`),
    setLocalReceivers: (entityId, receivers) => call('PUT', `${localReceivers(entityId)}`, { receivers }),
    showLocalReceivers: (entityId) => call('GET', localReceivers(entityId)),
    close: async () => undefined,
  };
}
