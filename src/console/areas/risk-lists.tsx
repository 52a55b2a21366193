import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { visibilityOf } from '../../domain/access/actor.js';
import { containsCardNumber, hasDigitRun } from '../../domain/card-numbers-in-text.js';
import { riskListChange, riskListImported } from '../../operations/audit/admin-changes.js';
import { withAudit, withVaultInTransaction } from '../../operations/audit/audited.js';
import { requireVisibleEntity } from '../../operations/developers/developer-scope.js';
import { addRiskListEntry, type RiskConfigDeps } from '../../operations/risk/configure-risk.js';
import { importRiskList } from '../../operations/risk/import-risk-list.js';
import { removeRiskListEntryByHandle, riskListsOf } from '../../operations/risk/risk-list-entries.js';
import { GatewayError } from '../../results/gateway-error.js';
import { consoleActor } from '../console-actor.js';
import { fieldOf, frameOf, sendRefusal } from '../pages/developers/developer-request.js';
import { RISK, RISK_LISTS, RISK_REVIEWS, type RiskFormState } from '../pages/risk/risk-common.js';
import { RiskListsPage } from '../pages/risk/risk-lists-page.js';
import { sendPage } from '../render.js';
import '../route-config.js';

/** The risk operations' deps, read at each request (a test may replace the payment deps' vault). */
export function riskDepsOf(request: FastifyRequest): RiskConfigDeps {
  const payments = request.server.gateway.payments;
  return { ...payments, forgetRiskSettings: () => payments.riskSettings?.forgetAll() };
}

/** Whether a typed value may be shown again: never one that holds a card number, even a mistyped one (12 digits or more in a row). */
export function mayEcho(value: string): boolean {
  return !containsCardNumber(value) && !hasDigitRun(value);
}

/** The typed values a refused form may show again. */
export function safeValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => mayEcho(value)));
}

/** The messages of a refusal by field, or undefined when it is no refusal of the form's content. */
export function formErrorsOf(error: unknown): Record<string, string[]> | undefined {
  if (!(error instanceof GatewayError) || !error.parameterErrors || error.httpStatus === 404) return undefined;
  const errors: Record<string, string[]> = {};
  for (const p of error.parameterErrors) (errors[p.name] ??= []).push(p.message);
  return errors;
}

function listsHref(request: FastifyRequest, done: string): string {
  const params = new URLSearchParams();
  const merchant = fieldOf(request.body, 'merchant');
  if (merchant) params.set('merchant', merchant);
  params.set('entity', fieldOf(request.body, 'entity'));
  params.set('done', done);
  return `${RISK_LISTS}?${params}`;
}

async function showLists(request: FastifyRequest, reply: FastifyReply, state?: RiskFormState): Promise<FastifyReply> {
  const source = state ? request.body : request.query;
  const view = await riskListsOf(request.server.gateway, visibilityOf(request.consoleUser!), { merchant: fieldOf(source, 'merchant'), entity: fieldOf(source, 'entity') });
  const done = state ? undefined : fieldOf(request.query, 'done') || undefined;
  return sendPage(reply, <RiskListsPage frame={frameOf(request, RISK_LISTS)} view={view} state={state} done={done} />, state ? 400 : 200);
}

/** A change of the lists: the entity checked against what the person may see, then the one operation, audited. */
function listChange(run: (request: FastifyRequest, entityId: string) => Promise<string>, formOf: (request: FastifyRequest) => string, shownValues: (request: FastifyRequest) => Record<string, string>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const entityId = fieldOf(request.body, 'entity');
      await requireVisibleEntity(request.server.gateway.storage, visibilityOf(request.consoleUser!), entityId);
      return reply.redirect(listsHref(request, await run(request, entityId)), 303);
    } catch (error) {
      const errors = formErrorsOf(error);
      if (errors) return showLists(request, reply, { form: formOf(request), errors, values: safeValues(shownValues(request)) });
      return sendRefusal(request, reply, error, { href: RISK_LISTS, label: 'Back to the lists' });
    }
  };
}

function listInput(request: FastifyRequest, entityId: string) {
  const user = request.consoleUser!;
  return { entityId, list: fieldOf(request.body, 'list'), kind: fieldOf(request.body, 'kind'), value: fieldOf(request.body, 'value'), reason: fieldOf(request.body, 'reason') || undefined, changedBy: user.email };
}

/** What a refused add may show again: the list, kind and reason; the value only when it is no card or IBAN. */
function addValues(request: FastifyRequest): Record<string, string> {
  const values: Record<string, string> = { list: fieldOf(request.body, 'list'), kind: fieldOf(request.body, 'kind'), reason: fieldOf(request.body, 'reason') };
  if (fieldOf(request.body, 'form') === 'value') values['value'] = fieldOf(request.body, 'value');
  return values;
}

/**
 * Black- and whitelists (issue 32): the entries of the merchant or a channel, add one (a card or
 * IBAN in a field that never echoes it), remove one, import a CSV. The same operations as the
 * admin API and the command line, each audited in its transaction.
 */
export function registerRiskLists(app: FastifyInstance): void {
  const manage = { config: { console: 'risk.lists.manage' as const } };
  app.get(RISK, { config: { console: 'risk.view' } }, async (_request, reply) => reply.redirect(RISK_REVIEWS, 303));
  app.get(RISK_LISTS, { config: { console: 'risk.view' } }, async (request, reply) => {
    try {
      return await showLists(request, reply);
    } catch (error) {
      return sendRefusal(request, reply, error, { href: RISK_LISTS, label: 'Back to the lists' });
    }
  });
  app.post(RISK_LISTS, manage, listChange(async (request, entityId) => {
    const input = listInput(request, entityId);
    const added = await withAudit(riskDepsOf(request), consoleActor(request), (scoped) => addRiskListEntry(withVaultInTransaction(scoped), input), riskListChange('risk.lists.add', input));
    return added.added ? 'added' : 'already-listed';
  }, (request) => (fieldOf(request.body, 'form') === 'value' ? 'value' : 'card'), addValues));
  app.post(`${RISK_LISTS}/remove`, manage, listChange(async (request, entityId) => {
    const input = { entityId, list: fieldOf(request.body, 'list'), handle: fieldOf(request.body, 'entry'), changedBy: request.consoleUser!.email };
    await withAudit(riskDepsOf(request), consoleActor(request), (scoped) => removeRiskListEntryByHandle(scoped, input), riskListChange('risk.lists.remove', input));
    return 'removed';
  }, () => 'remove', () => ({})));
  app.post(`${RISK_LISTS}/import`, manage, listChange(async (request, entityId) => {
    const input = { entityId, list: fieldOf(request.body, 'list'), csv: fieldOf(request.body, 'csv'), changedBy: request.consoleUser!.email };
    const imported = await withAudit(riskDepsOf(request), consoleActor(request), (scoped) => importRiskList(withVaultInTransaction(scoped), input), riskListImported(input));
    return `imported-${imported.added}-${imported.alreadyListed}`;
  }, () => 'import', (request) => ({ list: fieldOf(request.body, 'list') })));
}
