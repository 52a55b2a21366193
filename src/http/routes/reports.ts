import type { FastifyInstance, FastifyRequest } from 'fastify';
import { settlementDetail, settlementSummary, type DetailRequest } from '../../operations/settlement/reports.js';
import { GatewayError } from '../../results/gateway-error.js';
import { sendWithEnvelope } from '../reply.js';
import { paymentIdFrom, validatedParameters } from '../validate-request.js';

/** PSP and division credentials read their merchants' reports too. */
const merchantApi = { config: { auth: 'entity' as const, hierarchyRead: true } };
const INVALID = '200.300.404';
const PAGE_NO = /^[1-9][0-9]{0,5}$/;

function invalid(name: string, value: string, message: string): GatewayError {
  return new GatewayError(INVALID, { parameterErrors: [{ name, value: value.slice(0, 64), message }] });
}

/**
 * The detail's own query string: sortValue=SettlementTxDate, sortOrder in either case (the
 * compatibility reference) and, on v2, pageNo. The summary's required dates do not apply here.
 */
function detailRequest(request: FastifyRequest<{ Params: { id: string } }>, paged: boolean): DetailRequest {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
  const sortValue = text('sortValue');
  if (sortValue !== undefined && sortValue !== 'SettlementTxDate') throw invalid('sortValue', sortValue, 'must be SettlementTxDate');
  const sortOrder = text('sortOrder');
  if (sortOrder !== undefined && !['ASC', 'DESC'].includes(sortOrder.toUpperCase())) throw invalid('sortOrder', sortOrder, 'must be ASC or DESC, in either case');
  const pageNo = text('pageNo');
  if (paged && pageNo !== undefined && !PAGE_NO.test(pageNo)) throw invalid('pageNo', pageNo, 'must be an integer from 1');
  // A malformed id names no aggregation: "not found", as for payments.
  const aggregationId = paymentIdFrom(request.params.id);
  return {
    aggregationId,
    sortByTransactionDate: sortValue === 'SettlementTxDate',
    descending: sortOrder?.toUpperCase() === 'DESC',
    ...(paged ? { pageNo: pageNo === undefined ? 1 : Number(pageNo) } : {}),
  };
}

const day = (date: Date): string => date.toISOString().slice(0, 10);

/** The settlement reports (docs/settlement.md): summary per batch, detail, paged detail. */
export function registerReportRoutes(app: FastifyInstance): void {
  const deps = () => app.gateway;
  app.get('/reports/v1/reconciliations/aggregations', merchantApi, async (request, reply) => {
    const parameters = validatedParameters('reporting', request);
    const aggregations = await settlementSummary(deps(), request.entityId!, { from: day(parameters.date.from), to: day(parameters.date.to), currency: parameters.currency });
    return sendWithEnvelope(request, reply, 200, { aggregations }, '000.000.100');
  });
  app.get<{ Params: { id: string } }>('/reports/v1/reconciliations/aggregations/:id', merchantApi, async (request, reply) => {
    const detail = await settlementDetail(deps(), request.entityId!, detailRequest(request, false));
    return sendWithEnvelope(request, reply, 200, detail, '000.000.100');
  });
  app.get<{ Params: { id: string } }>('/reports/v2/reconciliations/aggregations/:id', merchantApi, async (request, reply) => {
    const detail = await settlementDetail(deps(), request.entityId!, detailRequest(request, true));
    return sendWithEnvelope(request, reply, 200, detail, '000.000.100');
  });
}
