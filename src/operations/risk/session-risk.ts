import { hiddenBrands, type RiskProfile } from '../../domain/risk/brand-offer.js';
import { decideRisk } from '../../domain/risk/decide.js';
import { canonicalIp, normalizeEmail } from '../../domain/risk/keys.js';
import { tryParseAmount } from '../../domain/money.js';
import { readFacts } from '../../storage/repositories/risk-attempts.js';
import type { PaymentDeps } from '../deps.js';
import { factsWith, velocityProbes } from './evaluate-payment-risk.js';
import { listProbesOf, type RequestFacts } from './payment-facts.js';
import type { EffectiveRiskSettings } from './risk-settings.js';

export interface SessionShopper {
  readonly entityId: string;
  /** The checkout's parameters as kept (flat names: customer.email, billing.country …). */
  readonly parameters: Readonly<Record<string, string>>;
  /** The address the shopper's browser reached the gateway from: customer.ip of the checkout wins. */
  readonly ip?: string | undefined;
}

const RISK_PARAMETER = /^risk\.parameters\[([^\]]+)\]$/;

function riskParametersOf(parameters: Readonly<Record<string, string>>): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [name, value] of Object.entries(parameters)) {
    const key = RISK_PARAMETER.exec(name)?.[1];
    if (key !== undefined) found[key] = value;
  }
  for (const name of ['channelId', 'serviceId']) if (parameters[`risk.${name}`] !== undefined) found[name] = parameters[`risk.${name}`]!;
  return found;
}

/**
 * What the engine knows of a shopper when the widget session starts: the checkout's amount,
 * e-mail, customer, countries and risk parameters, and the browser's IP; no card, no brand yet.
 * `canAuthenticate`: a card could still be chosen, so a 3-D Secure profile stays one.
 */
export function sessionFacts(shopper: SessionShopper): RequestFacts {
  const p = shopper.parameters;
  const ip = p['customer.ip'] ?? shopper.ip;
  return {
    paymentType: p['paymentType'] === 'PA' ? 'PA' : 'DB',
    amountMinor: tryParseAmount(p['amount'] ?? '') ?? 0n,
    currency: p['currency'] ?? '',
    brand: null,
    methodKind: 'none',
    canAuthenticate: true,
    email: p['customer.email'] ? normalizeEmail(p['customer.email']) : undefined,
    ip: ip ? canonicalIp(ip) : undefined,
    customerId: p['customer.merchantCustomerId'],
    billingCountry: p['billing.country'],
    shippingCountry: p['shipping.country'],
    parameters: riskParametersOf(p),
  };
}

async function profileOf(deps: PaymentDeps, settings: EffectiveRiskSettings, facts: RequestFacts): Promise<RiskProfile> {
  const { counts } = velocityProbes(settings, facts, deps.clock.now());
  const read = await readFacts(deps.storage, { counts, currency: facts.currency, probes: listProbesOf(facts, settings.listedKinds), listEntityIds: settings.listEntityIds });
  const decision = decideRisk(settings.ruleSet, factsWith(facts, settings, read), deps.system);
  return { kind: decision.kind, score: decision.score };
}

/**
 * Active payment method selection: the brands the entity's rule set hides from this shopper
 * (docs/risk.md, "Brands offered"). Read, never recorded: starting a session is no attempt. An
 * entity without `brandOffer` rows (or with risk disabled) costs nothing and hides nothing.
 */
export async function hiddenBrandsFor(deps: PaymentDeps, shopper: SessionShopper): Promise<string[]> {
  if (!deps.riskSettings) return [];
  const settings = await deps.riskSettings.of(shopper.entityId);
  const rows = settings.ruleSet.brandOffer ?? [];
  if (!settings.ruleSet.enabled || rows.length === 0) return [];
  return hiddenBrands(settings.ruleSet, await profileOf(deps, settings, sessionFacts(shopper)));
}
