import { enveloped, EXAMPLE_ENTITY_ID as ENTITY, refused, type JsonObject } from './operation-spec.js';

/**
 * Example answers of admin-operations.ts, as the gateway gives them to its example requests. An
 * admin request names no entity of its own: its ndc is the request id alone.
 */

const OK = '000.000.100';
const AT = '2026-11-22T10:00:00.000Z';
const ok = (fields: JsonObject) => enveloped(OK, fields, undefined);
const notFound = (code: string, name: string, value: string, message: string) => refused(code, { name, value, message });

const ROUTE = { routeId: 'c2b4d6f8a0e1c3b5d7f9a1e3c5b7d9f0', system: 'test', entityId: ENTITY, paymentBrand: 'VISA', currency: 'EUR', connectorId: 'simulator', credentialNames: [], createdAt: AT, updatedAt: AT, disabledAt: null, fallbackRouteId: null };
const WEBHOOK = { webhookId: '3f6c1a9e0b2d4c8e9a7f5d3b1c0e2a4f', entityId: ENTITY, url: 'https://shop.example.com/webhooks', status: 'pending', createdAt: AT, activatedAt: null, types: ['PAYMENT', 'REGISTRATION'] };
const RULES = { enabled: true, rejectAtScore: 2000, currencies: ['EUR', 'USD'], amountLimits: [{ currency: 'EUR', action: 'reject', points: 1000, min: '0.50', max: '5000.00' }], velocity: [], mismatches: [], parameters: [], binCountries: {}, testTriggers: true };
const BY = 'ops@shop.example.com';
const LISTED = { entityId: ENTITY, list: 'black', kind: 'email', shown: 'fraud@example.com' };

export const ADMIN_EXAMPLE_ANSWERS = {
  unauthorised: refused('800.900.300'),
  forbidden: refused('800.900.300'),
  noEntity: notFound('200.300.406', 'entity', ENTITY, 'no entity has this id'),
  noToken: notFound('200.300.406', 'tokenId', '0f1e2d3c4b5a69788796a5b4c3d2e1f0', 'no active access token has this id'),
  noTransaction: notFound('700.400.580', 'transaction', '8ac7a4a18f2d4c6e9b0a1c3e5f7d9b2a', 'no transaction has this id'),
  noWebhook: notFound('200.300.404', 'webhookId', WEBHOOK.webhookId, 'no webhook has this id'),
  noDelivery: notFound('200.300.404', 'deliveryId', '7d1e3a5c9b0f2e4d6c8a0b2d4f6e8a1c', 'no webhook delivery has this id'),
  noRoute: notFound('200.300.404', 'routeId', ROUTE.routeId, 'no route has this id'),
  entityCreated: ok({ entityId: ENTITY, kind: 'merchant', accessToken: 'MGYxZTJkM2M0YjVhNjk3ODg3OTZhNWI0YzNkMmUxZjB8VHM1SXJwb29JSnFTWnBhSlB6STRDV012X3NWeFR4OHI=', tokenId: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' }),
  entities: ok({ entities: [{ entityId: ENTITY, kind: 'merchant', name: 'Shop', merchantId: null, createdAt: AT, legacyAuth: true }] }),
  tokenCreated: ok({ tokenId: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', entityId: ENTITY, accessToken: 'MGYxZTJkM2M0YjVhNjk3ODg3OTZhNWI0YzNkMmUxZjB8VHM1SXJwb29JSnFTWnBhSlB6STRDV012X3NWeFR4OHI=' }),
  consoleOperator: ok({ userId: '5a4b3c2d1e0f5a4b3c2d1e0f5a4b3c2d', email: 'ops@example.com', role: 'operator-admin', oneTimePassword: 'xK7-pQ2-mR9-tW4', next: 'Sign in at /console/sign-in; the authenticator app is set up at the first sign-in.' }),
  auditVerified: ok({ ok: true, entries: 42, headHash: '9f2c4e1d7b3a60c5e8f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7' }),
  localReceivers: ok({ entityId: ENTITY, localReceivers: ['localhost:4242'] }),
  sftpKeyRemoved: ok({ keyId: '236f92c9a6bdf3e2bc7eadb2f7299698', merchantId: ENTITY, type: 'ssh-ed25519', fingerprint: 'SHA256:YoVUAMdUU/hGSbG5YBQeP95lzQ2sGbXEx6cKYS67sug' }),
  noSftpKey: notFound('200.300.406', 'key', '236f92c9a6bdf3e2bc7eadb2f7299698', 'no SFTP key of this merchant has this id'),
  sftpKeyAdded: ok({ keyId: '236f92c9a6bdf3e2bc7eadb2f7299698', merchantId: ENTITY, type: 'ssh-ed25519', fingerprint: 'SHA256:YoVUAMdUU/hGSbG5YBQeP95lzQ2sGbXEx6cKYS67sug' }),
  settlementFees: ok({ merchantId: ENTITY, fixed: '0.10', rateBasisPoints: '150', currency: 'EUR' }),
  settlementRun: ok({ day: '2026-11-21', ingest: { records: 0, inserted: 0, matched: 0, multipleMatches: 0, notMatched: 0, chargebacks: 0, merchantsWithNewRecords: [], bySource: [{ connectorId: 'simulator', records: 0, inserted: 0, matched: 0, multipleMatches: 0, notMatched: 0 }] }, files: [] }),
  vaultStatus: ok({ currentMasterKeyId: '41d3c4549111a714', dataKeys: [] }),
  vaultRotated: ok({ currentMasterKeyId: '41d3c4549111a714', rewrapped: 0, skipped: 0, after: { currentMasterKeyId: '41d3c4549111a714', dataKeys: [] } }),
  vaultFound: ok({ registrations: [] }),
  tokenRevoked: ok({ tokenId: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', revoked: true }),
  legacyAuth: ok({ entityId: ENTITY, legacyAuth: false }),
  unknownParameters: ok({ entityId: ENTITY, unknownParameters: 'ignore' }),
  threeDSecure: ok({ entityId: ENTITY, threeDSecure: 'always' }),
  throttling: ok({ entityId: ENTITY, throttleMaxRequests: 50 }),
  connectorDetails: ok({ entityId: ENTITY, showConnectorDetails: true }),
  bankAccount: ok({ entityId: ENTITY, bankAccount: { holder: 'Shop GmbH', number: 'DE89370400440532013000', bic: 'COBADEFFXXX', country: 'DE' } }),
  bankAccountRemoved: ok({ entityId: ENTITY, bankAccount: null }),
  sftpKeys: ok({ merchantId: ENTITY, keys: [] }),
  riskRulesSaved: ok({ entityId: ENTITY, version: 1, rules: RULES, changedBy: BY, changedAt: AT }),
  riskRulesHistory: ok({ entityId: ENTITY, versions: [{ version: 1, rules: RULES, changedBy: BY, changedAt: AT }], changes: [{ action: 'rules.set', detail: { version: 1 }, changedBy: BY, changedAt: AT }] }),
  riskRulesRestored: ok({ entityId: ENTITY, version: 3, rules: RULES, changedBy: BY, changedAt: AT, restoredFrom: 1 }),
  riskListImported: ok({ entityId: ENTITY, list: 'black', added: 2, alreadyListed: 0, entries: ['email fraud@example.com', 'ip 203.0.113.9'] }),
  riskReviews: ok({
    waiting: [{ transactionId: '8ac7a4a18f2d4c6e9b0a1c3e5f7d9b2a', entityId: ENTITY, paymentType: 'DB', amount: '555.55', currency: 'EUR', score: 500, fired: [{ rule: 'velocity.email.declines', action: 'review', points: 500, code: '100.400.319' }], card: { bin: '401288', last4: '1881' }, reversed: false, createdAt: AT }],
    decided: [],
  }),
  riskReviewDecided: ok({ transactionId: '8ac7a4a18f2d4c6e9b0a1c3e5f7d9b2a', decision: 'accept' }),
  riskListAdded: ok({ ...LISTED, added: true }),
  riskListRemoved: ok({ ...LISTED, removed: true }),
  riskList: ok({ entityId: ENTITY, list: 'black', entries: [{ kind: 'email', shown: 'fraud@example.com', reason: 'chargebacks', addedBy: BY, addedAt: AT }] }),
  // A payment no rule fired for has no record: score 0, accepted (with one: entityId, ruleSetVersion, evaluatedAt too).
  transactionRisk: ok({ transactionId: '8ac7a4a18f2d4c6e9b0a1c3e5f7d9b2a', decision: 'accept', score: 0, fired: [] }),
  webhookCreated: ok({ ...WEBHOOK, secret: 'c607416337f373763e12cd6bd62ffefa6bc6ad899f859b83bb688c3f46f163c4' }),
  webhooks: ok({ webhooks: [WEBHOOK] }),
  connectors: ok({ connectors: [{ connectorId: 'simulator', liveCapable: false, status: true, policy: { supportsRefund: true, supportsReversal: true, reversalCutoffMinutes: 1440, captureCutoffMinutes: 10080 } }] }),
  routeCreated: ok(ROUTE),
  routes: ok({ routes: [ROUTE] }),
  pending: ok({ pending: [] }),
} as const;
