import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import type { PaymentMethodData } from '../../connectors/connector.js';
import { cardBin } from '../../domain/card.js';
import type { ListProbe } from '../../storage/repositories/risk-attempts.js';
import type { RiskFacts } from '../../domain/risk/facts.js';
import { canonicalEmail } from '../../domain/risk/canonical-email.js';
import { canonicalIp, normalizeEmail } from '../../domain/risk/keys.js';
import type { RiskRuleSet } from '../../domain/risk/rule-set.js';
import { isMerchantInitiated } from '../../domain/three-d-secure/plan.js';
import type { Vault } from '../../domain/vault/index.js';

/** The facts of a request before the lists and counts are read. */
export type RequestFacts = Omit<RiskFacts, 'listHits' | 'velocity'>;

function cardNumberOf(method: PaymentMethodData): string | undefined {
  if (method.kind === 'card' || method.kind === 'walletDecrypted') return method.card.number;
  if (method.kind === 'tokenAccount') return method.token.number;
  return undefined;
}

function binCountryOf(set: RiskRuleSet, bin: string | undefined, number: string | undefined): string | undefined {
  if (!bin || !number) return undefined;
  // The longest configured prefix wins (an 8-digit BIN over its 6-digit range).
  for (const length of [8, 7, 6]) {
    const country = set.binCountries[number.slice(0, length)];
    if (country) return country;
  }
  return undefined;
}

function parametersOf(request: PaymentRequest): Record<string, string> {
  const risk = request.risk;
  return {
    ...(risk?.parameters ?? {}),
    ...(risk?.channelId !== undefined ? { channelId: risk.channelId } : {}),
    ...(risk?.serviceId !== undefined ? { serviceId: risk.serviceId } : {}),
  };
}

/**
 * What the rules need of a request. The card is fingerprinted by the vault's keyed HMAC (the
 * same key registrations use), so a card sent in clear and the same card paid through a
 * registration are one card, and no number reaches the risk tables.
 */
export async function requestFacts(vault: Vault, set: RiskRuleSet, input: { readonly request: PaymentRequest; readonly method: PaymentMethodData; readonly paymentType: 'PA' | 'DB' | 'CD'; readonly amountMinor: bigint; readonly currency: string; readonly brand: string | null }): Promise<RequestFacts> {
  const { request, method } = input;
  const number = cardNumberOf(method);
  const bin = number ? cardBin(number.replace(/[\s-]/g, '')) : undefined;
  const iban = method.kind === 'bankAccount' ? method.bankAccount.iban : undefined;
  const email = request.customer?.email;
  const ip = request.customer?.ip;
  return {
    paymentType: input.paymentType,
    // The payment's own amount, never risk.amount: a merchant could send any amount there and
    // step around the operator's limits and velocity sums (issue 29); the attempt records this one too.
    amountMinor: input.amountMinor,
    currency: input.currency,
    // The payment's brand, as its amount: what the merchant claims in risk.brand decides no operator rule.
    brand: input.brand,
    methodKind: method.kind,
    canAuthenticate: method.kind === 'card' && input.paymentType !== 'CD' && !isMerchantInitiated(request.standingInstruction),
    cardFingerprint: number ? await vault.fingerprint('card', number) : undefined,
    bin,
    binCountry: binCountryOf(set, bin, number?.replace(/[\s-]/g, '')),
    ibanFingerprint: iban ? await vault.fingerprint('iban', iban) : undefined,
    email: email ? normalizeEmail(email) : undefined,
    ip: ip ? canonicalIp(ip) : undefined,
    customerId: request.customer?.merchantCustomerId,
    billingCountry: request.billing?.country,
    shippingCountry: request.shipping?.country,
    parameters: parametersOf(request),
  };
}

/** The list look-ups of these facts: one per value an entry of the lists' kinds could name. */
export function listProbesOf(facts: RequestFacts, listedKinds: ReadonlySet<string>): ListProbe[] {
  const probes: ListProbe[] = [];
  if (listedKinds.size === 0) return probes;
  const add = (kind: string, value: string | undefined, source?: string) => { if (value !== undefined && listedKinds.has(kind)) probes.push({ kind, value, source }); };
  add('card', facts.cardFingerprint);
  add('iban', facts.ibanFingerprint);
  add('bin', facts.bin);
  // The address in its one form (canonicalEmail), worked out only when a list holds addresses.
  if (facts.email !== undefined && listedKinds.has('email')) probes.push({ kind: 'email', value: canonicalEmail(facts.email) });
  add('ip', facts.ip);
  add('country', facts.billingCountry, 'billing');
  add('country', facts.shippingCountry, 'shipping');
  add('country', facts.binCountry, 'bin');
  return probes;
}
