import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { visibilityOf } from '../../domain/access/actor.js';
import { mayPerform } from '../../domain/access/permissions.js';
import { parsePaymentSearch, type ParsedSearch } from '../../domain/payment-search/search-filter.js';
import { exportPayments } from '../../operations/console/export-payments.js';
import { InvalidCursorError, searchPaymentsPage, type SearchPage } from '../../operations/console/search-payments.js';
import { PAYMENTS_PATH, PaymentsSearchPage } from '../pages/payments-search-page.js';
import { sendPage } from '../render.js';

type Query = Record<string, unknown>;
const NO_PAGE: SearchPage = { rows: [], next: undefined, previous: undefined };

function renderSearch(request: FastifyRequest, reply: FastifyReply, parsed: ParsedSearch, page: SearchPage, status = 200): FastifyReply {
  const user = request.consoleUser!;
  return sendPage(reply, (
    <PaymentsSearchPage
      user={user}
      system={request.server.gateway.config.system}
      csrfToken={request.consoleCsrfToken}
      form={parsed.form}
      errors={parsed.ok ? [] : parsed.errors}
      rows={page.rows}
      next={page.next}
      previous={page.previous}
      mayExport={mayPerform(user.role, 'payments.export')}
    />
  ), status);
}

const cursorOf = (query: Query): string | undefined =>
  typeof query['cursor'] === 'string' && query['cursor'] !== '' ? query['cursor'] : undefined;

/**
 * Payments: the search (GET /console/payments, the form's fields in the query string, `cursor`
 * for a page) and its CSV export. The detail page (/console/payments/:id) is another area's.
 */
export function registerPaymentsSearch(app: FastifyInstance): void {
  app.get<{ Querystring: Query }>(PAYMENTS_PATH, { config: { console: 'payments.view' } }, async (request, reply) => {
    const parsed = parsePaymentSearch(request.query);
    if (!parsed.ok) return renderSearch(request, reply, parsed, NO_PAGE, 400);
    try {
      const page = await searchPaymentsPage(request.server.gateway, visibilityOf(request.consoleUser!), parsed.search, cursorOf(request.query));
      return renderSearch(request, reply, parsed, page);
    } catch (error) {
      if (!(error instanceof InvalidCursorError)) throw error;
      const refused: ParsedSearch = { ok: false, form: parsed.form, errors: [{ field: 'sort', message: 'that page link belongs to another search: search again' }] };
      return renderSearch(request, reply, refused, NO_PAGE, 400);
    }
  });

  app.get<{ Querystring: Query }>(`${PAYMENTS_PATH}/export.csv`, { config: { console: 'payments.export' } }, async (request, reply) => {
    const parsed = parsePaymentSearch(request.query);
    if (!parsed.ok) return renderSearch(request, reply, parsed, NO_PAGE, 400);
    const stamp = request.server.gateway.clock.now().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="payments-${stamp}.csv"`)
      .header('cache-control', 'no-store')
      .send(exportPayments(request.server.gateway, visibilityOf(request.consoleUser!), parsed.search));
  });
}
