import type { WebhookTargetRules } from '../../domain/webhook-url.js';
import type { OperationDeps } from '../deps.js';

/** The job kind that makes one delivery attempt; operations enqueue it, src/jobs runs it. */
export const DELIVER_WEBHOOK_JOB = 'deliver-webhook';

/** One notification on its way to one URL. */
export interface NotificationRequest {
  readonly url: string;
  /** POST (a notification, the default) or GET (the shopper result callback: no body). */
  readonly method?: 'GET' | 'POST' | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The receiving entity's local receivers (test system, a webhook's entity): the sender admits them too. */
  readonly localReceivers?: readonly string[] | undefined;
}

/** What the receiver answered: a status, or the transport error (refused, timeout …). */
export interface SendOutcome {
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
  /** The target breaks the address rules (docs/webhooks.md): a permanent failure, never retried. */
  readonly refused?: boolean | undefined;
}

/** Posts notifications; src/jobs/http-sender.ts is the real one, tests may pass another. */
export interface NotificationSender {
  send(request: NotificationRequest): Promise<SendOutcome>;
}

/** Operations that send a notification at once (test, activate, resend) also need a sender. */
export interface WebhookDeps extends OperationDeps {
  readonly sender: NotificationSender;
}

/** Operations that accept a target URL judge it by the operator's rules (config.workers.webhookTargets). */
export interface TargetRulesDeps {
  readonly webhookTargets: WebhookTargetRules;
}
