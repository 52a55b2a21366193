import type { ConnectorRouter } from '../connectors/router.js';
import type { Clock, IdGenerator } from '../domain/ids.js';
import type { Vault } from '../domain/vault/index.js';
import type { WebhookTargetRules } from '../domain/webhook-url.js';
import type { Storage } from '../storage/port.js';
import type { EntityNames } from './entity-names.js';
import type { PaymentWrites } from './payments/payment-writes.js';
import type { ThreeDSecureServer } from '../connectors/three-d-secure.js';
import type { ThreeDSecureSettings } from './three-d-secure/requirement-settings.js';
import type { RiskSettings } from './risk/risk-settings.js';
import type { Observer } from '../observability/observer.js';

/** What every operation may use; the composition root (app.ts / main.ts) supplies the adapters. */
export interface OperationDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** What the payment operations need besides storage, time and ids. */
export interface PaymentDeps extends OperationDeps {
  /** Picks the connector (and route credentials) of every payment. */
  readonly connectors: ConnectorRouter;
  readonly system: 'test' | 'live';
  /** How long a connector may take before its outcome counts as unknown (CONNECTOR_TIMEOUT_MS). */
  readonly connectorTimeoutMs: number;
  readonly entityNames: EntityNames;
  /** Seals and opens stored account numbers (registrations, createRegistration=true). */
  readonly vault: Vault;
  /** The pending and outcome writes, grouped across concurrent payments. */
  readonly writes: PaymentWrites;
  /** Which notificationUrl targets a request may name. */
  readonly webhookTargets: WebhookTargetRules;
  /** The 3-D Secure server: the simulated directory and ACS on the test system; none on the live system. */
  readonly threeDSecure?: ThreeDSecureServer | undefined;
  /** Each entity's 3-D Secure requirement (cached a few seconds). */
  readonly threeDSecureSettings: ThreeDSecureSettings;
  /** How long a shopper redirect stays open (REDIRECT_EXPIRY_MINUTES). */
  readonly redirectExpiryMs: number;
  /** How long a protocol challenge waits for the ACS's RReq (THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES). */
  readonly challengeTimeoutMs: number;
  /** Each entity's risk rule set (cached a few seconds); absent: payments are not risk-checked. */
  readonly riskSettings?: RiskSettings | undefined;
  /** Where payments, connector calls and 3-D Secure outcomes are reported (metrics); never waited on. */
  readonly observe: Observer;
}
