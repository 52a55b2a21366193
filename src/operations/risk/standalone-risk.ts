import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import { decideRisk, REVIEW_CODE } from '../../domain/risk/decide.js';
import { formatAmount } from '../../domain/money.js';
import { resultOf } from '../../http/envelope.js';
import { readFacts } from '../../storage/repositories/risk-attempts.js';
import type { PaymentDeps } from '../deps.js';
import { resolvePaymentMethod } from '../payments/payment-method.js';
import type { PaymentView } from '../payments/payment-response.js';
import { factsWith, velocityProbes } from './evaluate-payment-risk.js';
import { listProbesOf, requestFacts } from './payment-facts.js';

/** The success code of the system: the test system's simulator code, or the live one. */
const ACCEPTED = { test: '000.100.110', live: '000.000.000' } as const;

/**
 * POST /v1/risk: the score a payment with these parameters would get, without a payment. The
 * same rules and counts as a payment's check, but nothing is recorded: asking is no attempt, so
 * it cannot trip a velocity limit of the shopper's later payment. Accepted answers success,
 * review and a 3-D Secure step-up the manual-review code, a rejection the rule's code; every
 * answer carries risk.score.
 */
export async function standaloneRisk(deps: PaymentDeps, input: { entityId: string; request: PaymentRequest; echo: Readonly<Record<string, unknown>> }): Promise<PaymentView> {
  const { request } = input;
  const method = resolvePaymentMethod(request);
  const settings = await deps.riskSettings!.of(input.entityId);
  const amountMinor = request.amount!;
  const currency = request.currency!;
  const facts = await requestFacts(deps.vault, settings.ruleSet, { request, method: method.data, paymentType: 'PA', amountMinor, currency, brand: method.brand });
  const { counts } = velocityProbes(settings, facts, deps.clock.now());
  const read = await readFacts(deps.storage, { counts, currency, probes: listProbesOf(facts, settings.listedKinds), listEntityIds: settings.listEntityIds });
  const decision = decideRisk(settings.ruleSet, factsWith(facts, settings, read), deps.system);
  const code = decision.kind === 'reject' ? decision.code! : decision.kind === 'accept' ? ACCEPTED[deps.system] : REVIEW_CODE;
  const body: Record<string, unknown> = {
    id: deps.ids.id(),
    ...(method.brand ? { paymentBrand: method.brand } : {}),
    amount: formatAmount(amountMinor),
    currency,
    ...input.echo,
    risk: { ...(input.echo['risk'] as object | undefined), score: String(decision.score) },
  };
  return { body, result: resultOf(code) };
}
