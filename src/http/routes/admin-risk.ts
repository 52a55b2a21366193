import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addRiskListEntry, listRiskEntries, removeRiskListEntry, riskRulesHistory, setRiskRules, type RiskConfigDeps } from '../../operations/risk/configure-risk.js';
import { transactionRisk } from '../../operations/risk/transaction-risk.js';
import { adminField } from '../admin-fields.js';
import { formatAmount } from '../../domain/money.js';
import { sendWithEnvelope } from '../reply.js';
import { withAudit, withVaultInTransaction } from '../../operations/audit/audited.js';
import { adminActor } from '../admin-actor.js';
import { riskListChange, riskListImported, riskRulesChange, riskRulesRestored } from '../../operations/audit/admin-changes.js';
import { importRiskList } from '../../operations/risk/import-risk-list.js';
import { restoreRiskRules } from '../../operations/risk/restore-risk-rules.js';
import { decideRiskReview, listRiskReviews } from '../../operations/risk/review-payment.js';

const admin = { config: { auth: 'admin' as const } };
const OK = '000.000.100';
/** Who changed it, when the operator does not say: the change record always names somebody. */
const DEFAULT_ACTOR = 'admin-api';

type EntityParams = { Params: { entityId: string } };
type ListParams = { Params: { entityId: string; list: string } };

const field = (request: FastifyRequest, name: string, required: boolean) => adminField(request.body, name, required);
const actor = (request: FastifyRequest) => field(request, 'by', false) ?? DEFAULT_ACTOR;

function listInput(request: FastifyRequest<ListParams>) {
  return {
    entityId: request.params.entityId,
    list: request.params.list,
    kind: field(request, 'kind', true)!,
    // A card number travels in the body only (never the URL), and is never answered back.
    value: field(request, 'value', true)!,
    reason: field(request, 'reason', false),
    changedBy: actor(request),
  };
}

/**
 * The operator's risk API (ADMIN_TOKEN): rule sets (versioned, with who and when), black- and
 * whitelists (cards by the vault's fingerprint), and what the engine decided for a transaction.
 */
export function registerRiskAdminRoutes(app: FastifyInstance): void {
  const payments = app.gateway.payments;
  // Read at each request: the payment deps' vault may be replaced after the build (tests do).
  const riskDeps = (): RiskConfigDeps => ({ ...payments, forgetRiskSettings: () => payments.riskSettings?.forgetAll() });

  app.put<EntityParams>('/admin/entities/:entityId/risk/rules', admin, async (request, reply) => {
    const { entityId } = request.params;
    const input = { entityId, rules: field(request, 'rules', true)!, changedBy: actor(request) };
    const saved = await withAudit(riskDeps(), adminActor(request), (scoped) => setRiskRules(scoped, input), riskRulesChange(entityId));
    return sendWithEnvelope(request, reply, 200, saved, OK);
  });
  app.get<EntityParams>('/admin/entities/:entityId/risk/rules', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await riskRulesHistory(riskDeps(), request.params.entityId), OK),
  );
  app.post<ListParams>('/admin/entities/:entityId/risk/lists/:list', admin, async (request, reply) => {
    const input = listInput(request);
    const added = await withAudit(riskDeps(), adminActor(request), (scoped) => addRiskListEntry(withVaultInTransaction(scoped), input), riskListChange('risk.lists.add', input));
    return sendWithEnvelope(request, reply, 200, added, OK);
  });
  app.post<ListParams>('/admin/entities/:entityId/risk/lists/:list/remove', admin, async (request, reply) => {
    const input = listInput(request);
    const removed = await withAudit(riskDeps(), adminActor(request), (scoped) => removeRiskListEntry(withVaultInTransaction(scoped), input), riskListChange('risk.lists.remove', input));
    return sendWithEnvelope(request, reply, 200, removed, OK);
  });
  app.get<ListParams>('/admin/entities/:entityId/risk/lists/:list', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await listRiskEntries(riskDeps(), request.params.entityId, request.params.list), OK),
  );
  registerRiskAdditions(app, riskDeps);
  app.get<{ Params: { transactionId: string } }>('/admin/transactions/:transactionId/risk', admin, async (request, reply) =>
    sendWithEnvelope(request, reply, 200, await transactionRisk(riskDeps(), request.params.transactionId), OK),
  );
}

/** Restoring a rule set version, importing a CSV into a list, the manual review queue and its decisions. */
function registerRiskAdditions(app: FastifyInstance, riskDeps: () => RiskConfigDeps): void {
  app.post<EntityParams>('/admin/entities/:entityId/risk/rules/restore', admin, async (request, reply) => {
    const { entityId } = request.params;
    const input = { entityId, version: field(request, 'version', true)!, changedBy: actor(request) };
    const saved = await withAudit(riskDeps(), adminActor(request), (scoped) => restoreRiskRules(scoped, input), riskRulesRestored(entityId));
    return sendWithEnvelope(request, reply, 200, saved, OK);
  });
  app.post<ListParams>('/admin/entities/:entityId/risk/lists/:list/import', admin, async (request, reply) => {
    const input = { entityId: request.params.entityId, list: request.params.list, csv: field(request, 'csv', true)!, changedBy: actor(request) };
    const imported = await withAudit(riskDeps(), adminActor(request), (scoped) => importRiskList(withVaultInTransaction(scoped), input), riskListImported(input));
    return sendWithEnvelope(request, reply, 200, imported, OK);
  });
  app.get('/admin/risk/reviews', admin, async (request, reply) => {
    const { waiting, decided } = await listRiskReviews(riskDeps(), { kind: 'all' });
    const body = {
      waiting: waiting.map((w) => ({
        transactionId: w.transactionId, entityId: w.entityId, paymentType: w.paymentType, amount: formatAmount(w.amountMinor), currency: w.currency,
        score: w.score, fired: w.fired, card: w.card, reversed: w.reversed, createdAt: w.createdAt.toISOString(),
      })),
      decided: decided.map((d) => ({ ...d, decidedAt: d.decidedAt.toISOString() })),
    };
    return sendWithEnvelope(request, reply, 200, body, OK);
  });
  app.post<{ Params: { transactionId: string } }>('/admin/transactions/:transactionId/risk/review', admin, async (request, reply) => {
    const input = { transactionId: request.params.transactionId, decision: field(request, 'decision', true)!, reason: field(request, 'reason', true)! };
    const outcome = await decideRiskReview(app.gateway.payments, { actor: adminActor(request), visibility: { kind: 'all' } }, input);
    return sendWithEnvelope(request, reply, 200, outcome, OK);
  });
}
