import { randomBytes } from 'node:crypto';
import { adminApiCaller } from '../../../src/cli/admin-api-call.js';
import { startGateway, type GatewayProcess } from '../../support/gateway-process.js';
import { RECEIVER_ENV, WebhookReceiver, type ReceivedNotification } from '../../support/webhook-receiver.js';

/** The merchant's credentials: the demo merchant a fresh gateway prints once. */
export interface Merchant {
  readonly entityId: string;
  readonly accessToken: string;
}

/** A real gateway process on a fresh embedded database, with the merchant's webhook registered. */
export interface GatewayWithWebhook {
  readonly gateway: GatewayProcess;
  readonly merchant: Merchant;
  readonly receiver: WebhookReceiver;
  /** The gateway's ADMIN_TOKEN, for a test's own admin calls (risk rules …). */
  readonly adminToken: string;
  /** Resolves with the PAYMENT notification of `paymentId` carrying `action`, once it arrives. */
  notification(paymentId: string, action: string, timeoutMs?: number): Promise<ReceivedNotification>;
  /** Every PAYMENT notification of `paymentId` received so far (retries of one notification included). */
  notificationsOf(paymentId: string): ReceivedNotification[];
  stop(): Promise<void>;
}

const WEBHOOK_PATH = '/webhooks/payments';

/** `env`: more of the gateway's environment (a short CHECKOUT_LIFETIME_MINUTES …). */
export async function startGatewayWithWebhook(env: Record<string, string> = {}): Promise<GatewayWithWebhook> {
  const adminToken = randomBytes(24).toString('hex');
  // Jobs are polled every 50 ms so that the notification follows the shopper's click closely. The
  // log level stays info: startGateway waits for the "gateway ready" line.
  const gateway = await startGateway({ ...RECEIVER_ENV, DATABASE_URL: '', ADMIN_TOKEN: adminToken, WORKER_POLL_INTERVAL_MS: '50', ...env });
  const receiver = await WebhookReceiver.start();
  try {
    const merchant = demoMerchantOf(gateway.output());
    await registerWebhook(gateway.url, adminToken, merchant.entityId, receiver);
    return {
      gateway,
      merchant,
      receiver,
      adminToken,
      notification: (paymentId, action, timeoutMs = 15_000) => notificationOf(receiver, paymentId, action, timeoutMs),
      notificationsOf: (paymentId) => receiver.on(WEBHOOK_PATH).filter((n) => n.body.type === 'PAYMENT' && n.body.payload['id'] === paymentId),
      async stop() {
        await receiver.stop();
        await gateway.stop();
      },
    };
  } catch (error) {
    await receiver.stop();
    await gateway.stop();
    throw error;
  }
}

function demoMerchantOf(output: string): Merchant {
  const entityId = /entityId:\s+([0-9a-f]{32})/.exec(output)?.[1];
  const accessToken = /accessToken:\s+(\S+)/.exec(output)?.[1];
  if (!entityId || !accessToken) throw new Error(`the gateway printed no demo merchant:\n${output}`);
  return { entityId, accessToken };
}

/** As an operator does it: register, then activate (the receiver acknowledges the test message). */
async function registerWebhook(gatewayUrl: string, adminToken: string, entityId: string, receiver: WebhookReceiver): Promise<void> {
  const call = adminApiCaller(gatewayUrl, adminToken);
  const created = await call<{ webhookId: string; secret: string }>('POST', '/admin/webhooks', { entity: entityId, url: receiver.url(WEBHOOK_PATH) });
  receiver.setSecret(WEBHOOK_PATH, created.secret);
  const activated = await call<{ webhook: { status: string } }>('POST', `/admin/webhooks/${created.webhookId}/activate`);
  if (activated.webhook.status !== 'active') throw new Error(`the webhook did not become active: ${JSON.stringify(activated)}`);
}

async function notificationOf(receiver: WebhookReceiver, paymentId: string, action: string, timeoutMs: number): Promise<ReceivedNotification> {
  const find = () =>
    receiver.on(WEBHOOK_PATH).find((n) => n.body.type === 'PAYMENT' && n.body.action === action && n.body.payload['id'] === paymentId);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const seen = receiver.on(WEBHOOK_PATH).map((n) => `${n.body.type}/${n.body.action ?? '-'} ${String(n.body.payload?.['id'] ?? '')}`);
      reject(new Error(`no PAYMENT ${action} notification for ${paymentId} within ${timeoutMs} ms; received: ${seen.join(', ') || 'none'}`));
    }, timeoutMs);
  });
  try {
    await Promise.race([receiver.until(() => find() !== undefined), timeout]);
    return find()!;
  } finally {
    clearTimeout(timer);
  }
}
