import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { visibilityOf } from '../../domain/access/actor.js';
import { containsCardNumber } from '../../domain/card-numbers-in-text.js';
import { riskRulesChange, riskRulesRestored } from '../../operations/audit/admin-changes.js';
import { withAudit } from '../../operations/audit/audited.js';
import { riskRulesHistory, setRiskRules } from '../../operations/risk/configure-risk.js';
import { restoreRiskRules } from '../../operations/risk/restore-risk-rules.js';
import { riskScopeOf } from '../../operations/risk/risk-list-entries.js';
import { GatewayError } from '../../results/gateway-error.js';
import { consoleActor } from '../console-actor.js';
import { fieldOf, frameOf, sendRefusal } from '../pages/developers/developer-request.js';
import { RISK_RULES, type RiskFormState } from '../pages/risk/risk-common.js';
import { RiskRulesPage } from '../pages/risk/risk-rules-page.js';
import { sendPage } from '../render.js';
import { formErrorsOf, riskDepsOf, safeValues } from './risk-lists.js';
import '../route-config.js';

async function showRules(request: FastifyRequest, reply: FastifyReply, state?: RiskFormState): Promise<FastifyReply> {
  const source = state ? request.body : request.query;
  const scope = await riskScopeOf(request.server.gateway, visibilityOf(request.consoleUser!), { merchant: fieldOf(source, 'merchant'), entity: fieldOf(source, 'entity') });
  const history = scope.entityId ? await riskRulesHistory(request.server.gateway, scope.entityId) : undefined;
  const done = state ? undefined : fieldOf(request.query, 'done') || undefined;
  return sendPage(reply, <RiskRulesPage frame={frameOf(request, RISK_RULES)} scope={scope} history={history} state={state} done={done} />, state ? 400 : 200);
}

function rulesHref(request: FastifyRequest, done: string): string {
  const params = new URLSearchParams();
  const merchant = fieldOf(request.body, 'merchant');
  if (merchant) params.set('merchant', merchant);
  params.set('entity', fieldOf(request.body, 'entity'));
  params.set('done', done);
  return `${RISK_RULES}?${params}`;
}

/** A change of a rule set, for an entity the person may see; a refused one comes back with its messages. */
function rulesChange(run: (request: FastifyRequest, entityId: string) => Promise<string>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const scope = await riskScopeOf(request.server.gateway, visibilityOf(request.consoleUser!), { merchant: fieldOf(request.body, 'merchant'), entity: fieldOf(request.body, 'entity') });
      if (!scope.entityId) throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'merchant', value: '', message: 'choose a merchant first' }] });
      return reply.redirect(rulesHref(request, await run(request, scope.entityId)), 303);
    } catch (error) {
      const errors = formErrorsOf(error);
      if (!errors) return sendRefusal(request, reply, error, { href: RISK_RULES, label: 'Back to the rule sets' });
      const rules = fieldOf(request.body, 'rules');
      // The text comes back for fixing, unless it holds a card number (never shown on a page).
      return showRules(request, reply, { form: 'rules', errors: { rules: Object.values(errors).flat() }, values: safeValues({ rules }) });
    }
  };
}

/**
 * Rule sets (issue 32): the rules in force for the merchant or a channel, the editor (the admin
 * API's validation, every problem named by its place), the versions with who saved each and
 * when, what each changed and its full rules, and restoring an earlier version as a new one.
 */
export function registerRiskRules(app: FastifyInstance): void {
  const manage = { config: { console: 'risk.rules.manage' as const } };
  app.get(RISK_RULES, { config: { console: 'risk.rules.view' } }, async (request, reply) => {
    try {
      return await showRules(request, reply);
    } catch (error) {
      return sendRefusal(request, reply, error, { href: RISK_RULES, label: 'Back to the rule sets' });
    }
  });
  app.post(RISK_RULES, manage, rulesChange(async (request, entityId) => {
    const rules = fieldOf(request.body, 'rules');
    if (containsCardNumber(rules)) throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'rules', value: '', message: 'must not contain a card number' }] });
    const input = { entityId, rules, changedBy: request.consoleUser!.email };
    const saved = await withAudit(riskDepsOf(request), consoleActor(request), (scoped) => setRiskRules(scoped, input), riskRulesChange(entityId));
    return `saved-${saved.version}`;
  }));
  app.post(`${RISK_RULES}/restore`, manage, rulesChange(async (request, entityId) => {
    const input = { entityId, version: fieldOf(request.body, 'version'), changedBy: request.consoleUser!.email };
    const restored = await withAudit(riskDepsOf(request), consoleActor(request), (scoped) => restoreRiskRules(scoped, input), riskRulesRestored(entityId));
    return `restored-${restored.restoredFrom}`;
  }));
}
