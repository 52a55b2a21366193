import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { visibilityOf } from '../../domain/access/actor.js';
import { dayText, parseOverviewForm, type OverviewRequest } from '../../domain/overview/overview-period.js';
import { loadOverview, UnknownMerchantError, type Overview } from '../../operations/overview/load-overview.js';
import { OVERVIEW_PATH, OverviewPage } from '../pages/overview/overview-page.js';
import type { FormError } from '../pages/overview/period-form.js';
import type { OverviewForm } from '../../domain/overview/overview-period.js';
import { sendPage } from '../render.js';

const periodText = (request: OverviewRequest): string =>
  `${dayText(request.from)} to ${dayText(new Date(request.to.getTime() - 86_400_000))} (UTC days); pending: now.`;

function render(request: FastifyRequest, reply: FastifyReply, form: OverviewForm, errors: readonly FormError[], overview: Overview | undefined, text: string | undefined, status = 200): FastifyReply {
  return sendPage(reply, (
    <OverviewPage user={request.consoleUser!} system={request.server.gateway.config.system} csrfToken={request.consoleCsrfToken} form={form} errors={errors} periodText={text} overview={overview} />
  ), status);
}

/**
 * The overview (GET /console/overview?period=&from=&to=&merchant=): the console's home for every
 * role that may see payments. A GET form: it changes nothing, so it carries no CSRF token.
 */
export function registerOverview(app: FastifyInstance): void {
  app.get<{ Querystring: Record<string, unknown> }>(OVERVIEW_PATH, { config: { console: 'overview.view' } }, async (request, reply) => {
    const parsed = parseOverviewForm(request.query, request.server.gateway.clock.now());
    if (!parsed.ok) return render(request, reply, parsed.form, parsed.errors, undefined, undefined, 400);
    try {
      const overview = await loadOverview({ storage: request.server.gateway.storage }, visibilityOf(request.consoleUser!), parsed.request);
      return render(request, reply, parsed.form, [], overview, periodText(parsed.request));
    } catch (error) {
      if (!(error instanceof UnknownMerchantError)) throw error;
      return render(request, reply, parsed.form, [{ field: 'merchant', message: 'no merchant has this id' }], undefined, undefined, 400);
    }
  });
}
