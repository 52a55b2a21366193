import { EXAMPLE_ENTITY_ID, refused, type Answer, type OperationSpec } from './operation-spec.js';
import { ADMIN_EXAMPLE_ANSWERS as EXAMPLES } from './admin-examples.js';

/**
 * The operator's API (ADMIN_TOKEN; on its own listener with ADMIN_PORT). The command line calls
 * it while a gateway runs. Examples of the answers: admin-examples.ts.
 */

const TAG = 'Admin';
const WEBHOOK_ID = '3f6c1a9e0b2d4c8e9a7f5d3b1c0e2a4f';
const ROUTE_ID = 'c2b4d6f8a0e1c3b5d7f9a1e3c5b7d9f0';
const TRANSACTION_ID = '8ac7a4a18f2d4c6e9b0a1c3e5f7d9b2a';
const DELIVERY_ID = '7d1e3a5c9b0f2e4d6c8a0b2d4f6e8a1c';

const REFUSED: Readonly<Record<number, Answer>> = {
  401: { description: 'No Authorization header, or not a Bearer one', example: EXAMPLES.unauthorised },
  403: { description: 'Not the ADMIN_TOKEN', example: EXAMPLES.forbidden },
};
const INVALID: Answer = { description: 'A field is missing or malformed (parameterErrors names it)' };
const NO_ENTITY: Answer = { description: 'No such entity', example: EXAMPLES.noEntity };

const ok = (description: string, example: Answer['example'], status = 200): Readonly<Record<number, Answer>> => ({ [status]: { description, example } });

/** An operation on one entity, /admin/entities/{entityId}/…; the example's entity is a merchant. */
function entitySpec(spec: Omit<OperationSpec, 'tag' | 'access'>): OperationSpec {
  return { ...spec, tag: TAG, access: 'admin', pathExample: { entityId: EXAMPLE_ENTITY_ID, ...spec.pathExample }, fields: { entityId: 'The entity (32 hexadecimal characters)', ...spec.fields } };
}

const admin = (spec: Omit<OperationSpec, 'tag' | 'access'>): OperationSpec => ({ ...spec, tag: TAG, access: 'admin' });

const ENTITIES: readonly OperationSpec[] = [
  admin({
    method: 'post', path: '/admin/entities', operationId: 'adminCreateEntity', summary: 'Create a merchant, a channel (merchant=) or a PSP or division (kind=, parent=)',
    form: { name: 'Shop' }, optional: ['merchant', 'kind', 'parent'],
    fields: { name: 'What the operator calls it', merchant: 'For a channel: its merchant', kind: 'psp or division (absent: merchant, or channel with merchant=)', parent: 'The PSP or division above it' },
    answers: { ...ok('Created: the entity and its first access token (shown once)', EXAMPLES.entityCreated, 201), 400: INVALID, ...REFUSED },
  }),
  admin({ method: 'get', path: '/admin/entities', operationId: 'adminListEntities', summary: 'All entities', answers: { ...ok('The entities', EXAMPLES.entities), ...REFUSED } }),
  admin({
    method: 'post', path: '/admin/tokens', operationId: 'adminCreateToken', summary: 'A new access token for an entity (shown once)',
    form: { entity: EXAMPLE_ENTITY_ID }, fields: { entity: 'The entity the token acts for' }, answers: { ...ok('Created', EXAMPLES.tokenCreated, 201), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  admin({
    method: 'post', path: '/admin/console-users', operationId: 'adminCreateConsoleOperator', summary: 'A person who runs the console as an operator (docs/console.md; `gateway users create-operator`)',
    form: { email: 'ops@example.com', role: 'operator-admin' }, optional: ['role', 'password'],
    fields: { email: 'Their e-mail, the sign-in name', role: 'operator-admin (default), operator-support or operator-read-only', password: 'Absent: a one-time password is made, shown once and changed at the first sign-in' },
    answers: { ...ok('Created', EXAMPLES.consoleOperator, 201), 400: INVALID, ...REFUSED },
  }),
  admin({
    method: 'get', path: '/admin/audit/verify', operationId: 'adminVerifyAuditChain', summary: "Recompute the audit log's hash chain (docs/console.md, \"The audit log\"); ok false names the first broken entry",
    answers: { ...ok('The verdict', EXAMPLES.auditVerified), ...REFUSED },
  }),
  admin({
    method: 'delete', path: '/admin/tokens/{tokenId}', operationId: 'adminRevokeToken', summary: 'Revoke an access token (effective at once here, within 5 s in other gateways)',
    pathExample: { tokenId: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' }, answers: { ...ok('Revoked', EXAMPLES.tokenRevoked), 404: { description: 'No such token', example: EXAMPLES.noToken }, ...REFUSED },
  }),
  entitySpec({
    method: 'post', path: '/admin/entities/{entityId}/legacy-auth', operationId: 'adminSetLegacyAuth', summary: "Accept OPPWA's authentication.* fields for the entity, or not",
    form: { enabled: 'false' }, fields: { enabled: 'true or false' }, answers: { ...ok('Set', EXAMPLES.legacyAuth), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  entitySpec({
    method: 'put', path: '/admin/entities/{entityId}/unknown-parameters', operationId: 'adminSetUnknownParameters', summary: 'What a parameter no endpoint knows gets: reject (400) or ignore',
    form: { mode: 'ignore' }, fields: { mode: 'reject or ignore' }, answers: { ...ok('Set', EXAMPLES.unknownParameters), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  entitySpec({
    method: 'put', path: '/admin/entities/{entityId}/throttling', operationId: 'adminSetThrottling', summary: "Requests each of the entity's access tokens may make per THROTTLE_WINDOW_MS, in place of THROTTLE_MAX_REQUESTS (default: the gateway's again)",
    form: { maxRequests: '50' }, fields: { maxRequests: 'a whole number from 1 to 10000000, or default' }, answers: { ...ok('Set', EXAMPLES.throttling), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  entitySpec({
    method: 'put', path: '/admin/entities/{entityId}/three-d-secure', operationId: 'adminSetThreeDSecure', summary: 'When card payments of the entity need 3-D Secure (docs/api.md, "3-D Secure")',
    form: { requirement: 'always' }, fields: { requirement: 'if-enrolled, always, above:<amount>:<currency> or never' }, answers: { ...ok('Set', EXAMPLES.threeDSecure), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  entitySpec({
    method: 'put', path: '/admin/entities/{entityId}/connector-details', operationId: 'adminSetConnectorDetails', summary: "Show the connector's details in resultDetails of the entity's answers, or not",
    form: { enabled: 'true' }, fields: { enabled: 'true or false' }, answers: { ...ok('Set', EXAMPLES.connectorDetails), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  entitySpec({
    method: 'put', path: '/admin/entities/{entityId}/bank-account', operationId: 'adminSetBankAccount', summary: 'The bank account PREPAYMENT shoppers pay into (merchant.bankAccount.* of the answers)',
    form: { holder: 'Shop GmbH', number: 'DE89370400440532013000', bic: 'COBADEFFXXX', country: 'DE' }, optional: ['holder', 'number', 'bic', 'country'],
    answers: { ...ok('Set', EXAMPLES.bankAccount), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  entitySpec({
    method: 'delete', path: '/admin/entities/{entityId}/bank-account', operationId: 'adminRemoveBankAccount', summary: "Remove the entity's bank account",
    answers: { ...ok('Removed', EXAMPLES.bankAccountRemoved), 404: NO_ENTITY, ...REFUSED },
  }),
  entitySpec({
    method: 'get', path: '/admin/entities/{entityId}/sftp-keys', operationId: 'adminListSftpKeys', summary: 'The public keys the settlement SFTP server accepts for the merchant (docs/settlement.md)',
    answers: { ...ok('The keys', EXAMPLES.sftpKeys), 404: NO_ENTITY, ...REFUSED },
  }),
];

const RISK_RULES = '{"enabled":true,"rejectAtScore":2000,"currencies":["EUR","USD"],"amountLimits":[{"currency":"EUR","min":"0.50","max":"5000.00"}]}';

const RISK: readonly OperationSpec[] = [
  entitySpec({
    method: 'put', path: '/admin/entities/{entityId}/risk/rules', operationId: 'adminSetRiskRules', summary: 'A new version of the rule set (docs/risk.md)',
    form: { rules: RISK_RULES, by: 'ops@shop.example.com' }, optional: ['by'], fields: { rules: 'The rule set as JSON (docs/risk.md)', by: 'Who changes it (default admin-api)' },
    answers: { ...ok('Saved', EXAMPLES.riskRulesSaved), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  entitySpec({
    method: 'get', path: '/admin/entities/{entityId}/risk/rules', operationId: 'adminRiskRulesHistory', summary: 'The rule set versions, newest first, and the change record',
    answers: { ...ok('The versions', EXAMPLES.riskRulesHistory), 404: NO_ENTITY, ...REFUSED },
  }),
  ...(['add', 'remove'] as const).map((change) =>
    entitySpec({
      method: 'post', path: `/admin/entities/{entityId}/risk/lists/{list}${change === 'remove' ? '/remove' : ''}`,
      operationId: change === 'add' ? 'adminAddRiskListEntry' : 'adminRemoveRiskListEntry',
      summary: change === 'add' ? 'Add a value to the black or white list (a card by its fingerprint)' : 'Remove a value from the list',
      pathExample: { entityId: EXAMPLE_ENTITY_ID, list: 'black' },
      form: { kind: 'email', value: 'fraud@example.com', reason: 'chargebacks', by: 'ops@shop.example.com' }, optional: ['reason', 'by'],
      fields: { list: 'black or white', kind: 'What the value is (docs/risk.md)', value: 'A card number is sent here only, never in a URL, and never shown back' },
      answers: { ...ok(change === 'add' ? 'Added (added=false: it was there)' : 'Removed', change === 'add' ? EXAMPLES.riskListAdded : EXAMPLES.riskListRemoved), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
    }),
  ),
  entitySpec({
    method: 'get', path: '/admin/entities/{entityId}/risk/lists/{list}', operationId: 'adminListRiskEntries', summary: 'The entries of a list (cards as BIN…last four)',
    pathExample: { entityId: EXAMPLE_ENTITY_ID, list: 'black' }, fields: { list: 'black or white' },
    answers: { ...ok('The entries', EXAMPLES.riskList), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  entitySpec({
    method: 'post', path: '/admin/entities/{entityId}/risk/rules/restore', operationId: 'adminRestoreRiskRules', summary: 'An earlier rule set version made current again (a new version with its rules)',
    form: { version: '1', by: 'ops@shop.example.com' }, optional: ['by'], fields: { version: 'The version to restore', by: 'Who restores it (default admin-api)' },
    answers: { ...ok('Restored', EXAMPLES.riskRulesRestored), 400: INVALID, 404: { description: 'No such entity or version' }, ...REFUSED },
  }),
  entitySpec({
    method: 'post', path: '/admin/entities/{entityId}/risk/lists/{list}/import', operationId: 'adminImportRiskList', summary: 'Add the entries of a CSV (kind,value[,reason] per line) to the list; one bad line refuses all, named by line',
    pathExample: { entityId: EXAMPLE_ENTITY_ID, list: 'black' },
    form: { csv: 'kind,value,reason\nemail,fraud@example.com,chargebacks\nip,203.0.113.9,', by: 'ops@shop.example.com' }, optional: ['by'],
    fields: { list: 'black or white', csv: 'The CSV; a card number in it is fingerprinted and never shown back' },
    answers: { ...ok('Imported', EXAMPLES.riskListImported), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  admin({
    method: 'get', path: '/admin/risk/reviews', operationId: 'adminRiskReviews', summary: 'The payments the risk rules sent to manual review, oldest first, and the latest decisions',
    answers: { ...ok('The queue', EXAMPLES.riskReviews), ...REFUSED },
  }),
  admin({
    method: 'post', path: '/admin/transactions/{transactionId}/risk/review', operationId: 'adminDecideRiskReview', summary: 'Accept (the payment stands) or reject (it is reversed) a payment waiting for manual review',
    pathExample: { transactionId: TRANSACTION_ID }, form: { decision: 'accept', reason: 'customer confirmed by phone' },
    fields: { decision: 'accept or reject', reason: '3 to 500 characters' },
    answers: { ...ok('Decided', EXAMPLES.riskReviewDecided), 400: INVALID, 404: { description: 'No such transaction', example: EXAMPLES.noTransaction }, ...REFUSED },
  }),
  admin({
    method: 'get', path: '/admin/transactions/{transactionId}/risk', operationId: 'adminTransactionRisk', summary: "The risk engine's decision for a transaction: score, fired rules, rule set version",
    pathExample: { transactionId: TRANSACTION_ID }, answers: { 200: { description: 'The decision', example: EXAMPLES.transactionRisk }, 404: { description: 'No such transaction', example: EXAMPLES.noTransaction }, ...REFUSED },
  }),
];

const WEBHOOKS: readonly OperationSpec[] = [
  admin({
    method: 'post', path: '/admin/webhooks', operationId: 'adminCreateWebhook', summary: 'Register a webhook (docs/webhooks.md); the answer holds its secret, shown once',
    form: { entity: EXAMPLE_ENTITY_ID, url: 'https://shop.example.com/webhooks', types: 'PAYMENT,REGISTRATION' }, optional: ['types'],
    fields: { entity: 'The entity whose events it receives', url: 'Absolute http or https URL, up to 2048 characters', types: 'Notification types separated by commas (default PAYMENT,REGISTRATION; docs/webhooks.md)' },
    answers: { ...ok('Registered (pending until a test is acknowledged)', EXAMPLES.webhookCreated, 201), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  admin({
    method: 'get', path: '/admin/webhooks', operationId: 'adminListWebhooks', summary: 'The webhooks, of one entity or all (never their secrets)',
    query: { entity: EXAMPLE_ENTITY_ID }, optional: ['entity'], fields: { entity: 'Only the webhooks of this entity' }, answers: { ...ok('The webhooks', EXAMPLES.webhooks), 400: INVALID, ...REFUSED },
  }),
  ...webhookOperations(),
  admin({
    method: 'post', path: '/admin/webhooks/deliveries/{deliveryId}/resend', operationId: 'adminResendDelivery', summary: 'Send one delivery again now, with its original notification id',
    pathExample: { deliveryId: DELIVERY_ID }, answers: { 200: { description: 'Sent; the receiver\'s answer' }, 404: { description: 'No such delivery', example: EXAMPLES.noDelivery }, ...REFUSED },
  }),
];

function webhookOperations(): OperationSpec[] {
  const notFound: Answer = { description: 'No such webhook', example: EXAMPLES.noWebhook };
  const one = (method: OperationSpec['method'], suffix: string, operationId: string, summary: string, extra: Partial<OperationSpec> = {}): OperationSpec =>
    admin({ method, path: `/admin/webhooks/{webhookId}${suffix}`, operationId, summary, pathExample: { webhookId: WEBHOOK_ID }, answers: { 200: { description: 'Done' }, 404: notFound, ...REFUSED }, ...extra });
  return [
    one('get', '', 'adminGetWebhook', 'One webhook'),
    one('delete', '', 'adminDeleteWebhook', 'Remove a webhook (its attempt history stays)'),
    one('post', '/activate', 'adminActivateWebhook', 'Send a test now; activate on acknowledgement', { answers: { 200: { description: 'Acknowledged: active' }, 404: notFound, 502: { description: 'Not acknowledged (900.100.100 and the receiver\'s answer)' }, ...REFUSED } }),
    one('post', '/deactivate', 'adminDeactivateWebhook', 'Stop notifications; queued deliveries are cancelled'),
    one('post', '/test', 'adminTestWebhook', 'Send a test now and show the answer (status, latency)'),
    one('get', '/attempts', 'adminWebhookAttempts', 'Latest attempts, newest first', { query: { limit: '100' }, optional: ['limit'], fields: { limit: 'At most 500 (default 100)' } }),
  ];
}

const ROUTING: readonly OperationSpec[] = [
  admin({ method: 'get', path: '/admin/connectors', operationId: 'adminListConnectors', summary: 'The connectors of this build, whether each may serve the live system, and its policy', answers: { ...ok('The connectors', EXAMPLES.connectors), ...REFUSED } }),
  admin({
    method: 'post', path: '/admin/routes', operationId: 'adminCreateRoute', summary: 'Route payments of an entity, brand and currency to a connector with its credentials (never shown again)',
    form: { connector: 'simulator', entity: EXAMPLE_ENTITY_ID, brand: 'VISA', currency: 'EUR' }, optional: ['system', 'entity', 'brand', 'currency', 'fallback'],
    fields: { connector: 'A connector id of GET /admin/connectors, or emv3ds-server for a 3DS server route (its directory, AReq fields and mutual TLS certificate as credentials; docs/three-d-secure.md)', system: 'test or live', fallback: 'A route to try when this one fails', 'credentials[name]': 'The connector\'s credentials, one field each' },
    answers: { ...ok('Created; the answer names the credentials, never their values', EXAMPLES.routeCreated, 201), 400: INVALID, ...REFUSED },
  }),
  admin({ method: 'get', path: '/admin/routes', operationId: 'adminListRoutes', summary: 'Every route, disabled ones too', answers: { ...ok('The routes', EXAMPLES.routes), ...REFUSED } }),
  admin({
    method: 'post', path: '/admin/routes/{routeId}/credentials', operationId: 'adminRotateRouteCredentials', summary: "Replace a route's credentials",
    pathExample: { routeId: ROUTE_ID }, form: { 'credentials[apiKey]': 'sk_test_0123456789' }, answers: { 200: { description: 'Replaced' }, 400: INVALID, 404: { description: 'No such route', example: EXAMPLES.noRoute }, ...REFUSED },
  }),
  admin({
    method: 'post', path: '/admin/routes/{routeId}/disable', operationId: 'adminDisableRoute', summary: 'Disable a route',
    pathExample: { routeId: ROUTE_ID }, answers: { 200: { description: 'Disabled' }, 404: { description: 'No such route', example: EXAMPLES.noRoute }, ...REFUSED },
  }),
  admin({
    method: 'get', path: '/admin/pending', operationId: 'adminListPending', summary: 'Transactions still pending, oldest first, with their status checks',
    query: { limit: '100' }, optional: ['limit'], fields: { limit: 'At most 1000' }, answers: { ...ok('The pending transactions', EXAMPLES.pending), 400: INVALID, ...REFUSED },
  }),
  admin({
    method: 'post', path: '/admin/transactions/{transactionId}/resolve', operationId: 'adminResolvePending', summary: 'End a pending transaction by hand (docs/api.md, "Pending payments")',
    pathExample: { transactionId: TRANSACTION_ID }, form: { outcome: 'rejected', reason: 'acquirer confirmed by phone: not captured' }, fields: { outcome: 'success or rejected', reason: 'Why, for the record' },
    answers: { 200: { description: 'Resolved' }, 400: INVALID, 404: { description: 'No such transaction', example: EXAMPLES.noTransaction }, ...REFUSED },
  }),
];

const SFTP_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDAPo+Gp/pS5rmEsrXfdKWFMQrHyQVGDLuHUgm1TWcwo finance@shop.example';

/** What the command line does through a running gateway on the embedded database (docs/operations.md, "The command line"). */
const OPERATOR_TASKS: readonly OperationSpec[] = [
  entitySpec({
    method: 'get', path: '/admin/entities/{entityId}/webhook-local-receivers', operationId: 'adminShowLocalReceivers', summary: "Test system: the local receivers (host:port on this machine) the entity's webhooks may reach (docs/webhooks.md)",
    answers: { ...ok('The receivers', EXAMPLES.localReceivers), 404: NO_ENTITY, ...REFUSED },
  }),
  entitySpec({
    method: 'put', path: '/admin/entities/{entityId}/webhook-local-receivers', operationId: 'adminSetLocalReceivers', summary: "Test system: set the entity's local webhook receivers (an empty value clears them)",
    form: { receivers: 'localhost:4242' }, fields: { receivers: 'Comma-separated host:port of localhost, 127.x or [::1], at most 10' }, answers: { ...ok('Set', EXAMPLES.localReceivers), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  entitySpec({
    method: 'post', path: '/admin/entities/{entityId}/sftp-keys', operationId: 'adminAddSftpKey', summary: "An OpenSSH public key that may fetch the merchant's reconciliation files (docs/settlement.md)",
    form: { key: SFTP_KEY }, fields: { key: 'One line of an OpenSSH public key file' }, answers: { ...ok('Added', EXAMPLES.sftpKeyAdded, 201), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  entitySpec({
    method: 'delete', path: '/admin/entities/{entityId}/sftp-keys/{keyId}', operationId: 'adminRemoveSftpKey', summary: "Take a key's right to fetch the merchant's files away: the SFTP server refuses its next login (docs/settlement.md)",
    pathExample: { keyId: '236f92c9a6bdf3e2bc7eadb2f7299698' }, fields: { keyId: 'The key, as adding it answered (32 hexadecimal characters)' },
    answers: { ...ok('Removed', EXAMPLES.sftpKeyRemoved), 404: { description: 'The merchant has no key with this id', example: EXAMPLES.noSftpKey }, ...REFUSED },
  }),
  entitySpec({
    method: 'put', path: '/admin/entities/{entityId}/settlement-push-target', operationId: 'adminSetPushTarget', summary: "Also push the merchant's reconciliation files to its own server (the password is sealed by the vault)",
    form: { url: 'sftp://files@files.shop.example/outgoing', password: 'push-password' }, fields: { url: 'sftp://, ftps:// (ftp:// on the test system) with user, host, port and folder', password: 'The server password' },
    answers: { 200: { description: 'Set' }, 400: { description: 'A field is missing or malformed, or the host is not a public address (parameterErrors names it)', example: refused('200.300.404', { name: 'url', value: 'sftp://…@files.shop.example/outgoing', message: 'files.shop.example does not resolve to a public address' }) }, 404: NO_ENTITY, ...REFUSED },
  }),
  entitySpec({
    method: 'put', path: '/admin/entities/{entityId}/settlement-fees', operationId: 'adminSetSettlementFees', summary: "The simulated acquirer's fee and settlement currency for the merchant",
    form: { fixed: '0.10', 'rate-bp': '150', currency: 'EUR' }, optional: ['currency'], fields: { fixed: 'Fixed fee per transaction', 'rate-bp': 'Rate in basis points', currency: 'Settlement currency (ISO 4217)' },
    answers: { ...ok('Set', EXAMPLES.settlementFees), 400: INVALID, 404: NO_ENTITY, ...REFUSED },
  }),
  admin({
    method: 'post', path: '/admin/settlement/days/{day}/run', operationId: 'adminRunSettlementDay', summary: 'Run a settlement day (UTC) that has ended: ingest, match, chargebacks, reconciliation files (docs/settlement.md)',
    pathExample: { day: '2026-11-21' }, fields: { day: 'The day as YYYY-MM-DD', 'rewrite-files': 'true: write and push every merchant\'s file of the day again' }, form: {}, optional: ['rewrite-files'],
    answers: { ...ok('The day, run', EXAMPLES.settlementRun), 400: INVALID, ...REFUSED },
  }),
  admin({ method: 'get', path: '/admin/vault/status', operationId: 'adminVaultStatus', summary: 'The current master key id and the data keys each master key wraps', answers: { ...ok('The state', EXAMPLES.vaultStatus), ...REFUSED } }),
  admin({ method: 'post', path: '/admin/vault/rotate-key', operationId: 'adminVaultRotateKey', summary: 'Re-wrap every data key with the current master key (online; records untouched)', form: {}, answers: { ...ok('Re-wrapped', EXAMPLES.vaultRotated), ...REFUSED } }),
  admin({
    method: 'post', path: '/admin/vault/find-card', operationId: 'adminVaultFindCard', summary: 'Registrations holding an account number (sent in the body, never the URL)',
    form: { number: '4012888888881881', kind: 'card' }, optional: ['kind'], fields: { number: 'The account number', kind: 'card (default), iban, bankAccountNumber or tokenAccount' },
    answers: { ...ok('The registrations', EXAMPLES.vaultFound), 400: INVALID, ...REFUSED },
  }),
];

export const ADMIN_OPERATIONS: readonly OperationSpec[] = [...ENTITIES, ...RISK, ...WEBHOOKS, ...ROUTING, ...OPERATOR_TASKS];
