import type { FastifyInstance } from 'fastify';
import type { ConsoleArea } from './console-plugin.js';
import { registerDeveloperCredentials } from './areas/developers-credentials.js';
import { registerDevelopersIndex } from './areas/developers-index.js';
import { registerDeveloperRequests } from './areas/developers-requests.js';
import { registerDeveloperWebhooks } from './areas/developers-webhooks.js';
import { navigationFor } from './navigation.js';
import { registerAuditLogArea } from './areas/audit-log.js';
import { registerSignIn } from './areas/sign-in.js';
import { registerAccount } from './areas/account.js';
import { registerPeople } from './areas/people.js';
import { registerPaymentDetail } from './areas/payment-detail.js';
import { registerPaymentsSearch } from './areas/payments-search.js';
import { registerOperatorStatus } from './areas/operator-status.js';
import { registerOperatorEntities } from './areas/operator-entities.js';
import { registerOperatorRoutes } from './areas/operator-routes.js';
import { registerSchedules } from './areas/schedules.js';
import { registerPending } from './areas/pending.js';
import { registerRiskLists } from './areas/risk-lists.js';
import { registerRiskReviews } from './areas/risk-reviews.js';
import { registerRiskRules } from './areas/risk-rules.js';
import { registerOverview } from './areas/overview.js';
import { registerSettlement } from './areas/settlement.js';

/** /console: the first area the person's role opens: the overview, for every role that may see payments. */
function registerHome(app: FastifyInstance): void {
  app.get('/console', { config: { console: 'signed-in' } }, async (request, reply) => {
    const first = navigationFor(request.consoleUser!.role)[0];
    return reply.redirect(first?.href ?? '/console/account', 303);
  });
}

/**
 * Every area of the console, registered in this order. Each area is one file that declares its
 * routes (with their `console` access) and delegates to operations.
 */
export const CONSOLE_AREAS: readonly ConsoleArea[] = [
  registerHome,
  registerSignIn,
  registerAccount,
  registerOverview,
  registerPaymentsSearch,
  registerPaymentDetail,
  registerPeople,
  registerAuditLogArea,
  registerDevelopersIndex,
  registerDeveloperCredentials,
  registerDeveloperWebhooks,
  registerDeveloperRequests,
  registerOperatorStatus,
  registerOperatorEntities,
  registerOperatorRoutes,
  registerSchedules,
  registerPending,
  // Risk (issue 32): lists, rule sets, manual review.
  registerRiskLists,
  registerRiskRules,
  registerRiskReviews,
  registerSettlement,
];
