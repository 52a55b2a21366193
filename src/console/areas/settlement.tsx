import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { visibilityOf } from '../../domain/access/actor.js';
import { isOperatorRole } from '../../domain/access/roles.js';
import { listChargebacks, listSettlementBatches, loadSettlementBatch, parseSettlementFilter, SETTLEMENT_LIST_ROWS } from '../../operations/console/console-settlement.js';
import { openReconciliationFile } from '../../operations/console/reconciliation-download.js';
import { mayPerform } from '../../domain/access/permissions.js';
import { GatewayError } from '../../results/gateway-error.js';
import { Layout } from '../pages/layout.js';
import { BatchPage } from '../pages/settlement/batch-page.js';
import { BatchesListPage } from '../pages/settlement/batches-list-page.js';
import { ChargebacksPage } from '../pages/settlement/chargebacks-page.js';
import { CHARGEBACKS_PATH, SETTLEMENT_PATH, type FieldError, type SettlementListProps } from '../pages/settlement/settlement-filter.js';
import { sendPage } from '../render.js';
import { registerSettlementDelivery } from './settlement-delivery.js';
import '../route-config.js';

type Query = { Querystring: Record<string, unknown> };
type Params = { Params: { id: string }; Querystring: Record<string, unknown> };

const queryText = (request: FastifyRequest<Query>, name: string): string => (typeof request.query[name] === 'string' ? String(request.query[name]) : '');

/** The field a refusal names, for the page to show beside it (400); anything else is not the person's input. */
function refusedField(error: unknown): FieldError {
  const refused = error instanceof GatewayError ? error.parameterErrors?.[0] : undefined;
  return refused ? { field: refused.name, message: refused.message } : undefined;
}

function listProps(request: FastifyRequest<Query>, error: FieldError): SettlementListProps {
  const user = request.consoleUser!;
  const form = { from: queryText(request, 'from'), to: queryText(request, 'to'), currency: queryText(request, 'currency'), merchant: queryText(request, 'merchant') };
  return { user, system: request.server.gateway.config.system, csrfToken: request.consoleCsrfToken, form, error, limit: SETTLEMENT_LIST_ROWS, mayChooseMerchant: isOperatorRole(user.role) };
}

async function showBatches(request: FastifyRequest<Query>, reply: FastifyReply): Promise<FastifyReply> {
  const gateway = request.server.gateway;
  const visibility = visibilityOf(request.consoleUser!);
  try {
    const filter = parseSettlementFilter(request.query, visibility, gateway.clock);
    const rows = await listSettlementBatches(gateway, visibility, filter);
    return sendPage(reply, <BatchesListPage {...listProps(request, undefined)} filter={filter} rows={rows} />);
  } catch (error) {
    const field = refusedField(error);
    if (!field) throw error;
    return sendPage(reply, <BatchesListPage {...listProps(request, field)} filter={undefined} rows={[]} />, 400);
  }
}

async function showChargebacks(request: FastifyRequest<Query>, reply: FastifyReply): Promise<FastifyReply> {
  const gateway = request.server.gateway;
  const visibility = visibilityOf(request.consoleUser!);
  try {
    const filter = parseSettlementFilter(request.query, visibility, gateway.clock);
    const rows = await listChargebacks(gateway, visibility, filter);
    return sendPage(reply, <ChargebacksPage {...listProps(request, undefined)} filter={filter} rows={rows} />);
  } catch (error) {
    const field = refusedField(error);
    if (!field) throw error;
    return sendPage(reply, <ChargebacksPage {...listProps(request, field)} filter={undefined} rows={[]} />, 400);
  }
}

function sendProblem(request: FastifyRequest, reply: FastifyReply, title: string, text: string, status: number): FastifyReply {
  return sendPage(reply, (
    <Layout title={title} user={request.consoleUser} system={request.server.gateway.config.system} path={request.url} csrfToken={request.consoleCsrfToken}>
      <p>{text} <a href={SETTLEMENT_PATH}>All batches</a>.</p>
    </Layout>
  ), status);
}

async function showBatch(request: FastifyRequest<Params>, reply: FastifyReply): Promise<FastifyReply> {
  const gateway = request.server.gateway;
  try {
    const page = await loadSettlementBatch(gateway, visibilityOf(request.consoleUser!), request.params.id, queryText(request, 'page'));
    return sendPage(reply, <BatchPage user={request.consoleUser!} system={gateway.config.system} csrfToken={request.consoleCsrfToken} page={page} mayDownload={mayPerform(request.consoleUser!.role, 'settlement.download')} />);
  } catch (error) {
    const field = refusedField(error);
    if (field) return sendProblem(request, reply, 'No such page', `${field.message}.`, 400);
    if (error instanceof GatewayError && error.httpStatus === 404) return sendProblem(request, reply, 'No such batch', 'There is no settlement batch with this id that you may see.', 404);
    throw error;
  }
}

type FileParams = { Params: { merchantId: string; file: string } };

/** The reconciliation file, streamed as an attachment; the same 404 for every file the person may not have. */
async function sendFile(request: FastifyRequest<FileParams>, reply: FastifyReply): Promise<FastifyReply> {
  const gateway = request.server.gateway;
  try {
    const file = await openReconciliationFile(gateway.config.settlement.filesDir, visibilityOf(request.consoleUser!), request.params.merchantId, request.params.file);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file.name}"`)
      .header('content-length', String(file.bytes))
      .send(file.stream);
  } catch (error) {
    if (error instanceof GatewayError && error.httpStatus === 404) return sendProblem(request, reply, 'No such file', 'There is no reconciliation file of this merchant and day that you may download.', 404);
    throw error;
  }
}

/**
 * Settlement and chargebacks: the batches of the settlement days (GET /console/settlement), a
 * batch with its records (GET /console/settlement/batches/:id) and the chargebacks with their
 * reversals (GET /console/settlement/chargebacks), read through the reports' own queries; and a
 * merchant's reconciliation file of a day (GET /console/settlement/files/:merchantId/reconciliation-:day.csv);
 * and how the merchant receives those files (/console/settlement/delivery, settlement-delivery.tsx).
 */
export function registerSettlement(app: FastifyInstance): void {
  app.get<Query>(SETTLEMENT_PATH, { config: { console: 'settlement.view' } }, showBatches);
  app.get<Query>(CHARGEBACKS_PATH, { config: { console: 'settlement.view' } }, showChargebacks);
  app.get<Params>(`${SETTLEMENT_PATH}/batches/:id`, { config: { console: 'settlement.view' } }, showBatch);
  app.get<FileParams>(`${SETTLEMENT_PATH}/files/:merchantId/:file`, { config: { console: 'settlement.download' } }, sendFile);
  registerSettlementDelivery(app);
}
