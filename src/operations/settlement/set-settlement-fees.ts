import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { tryParseAmount } from '../../domain/money.js';
import { GatewayError } from '../../results/gateway-error.js';
import { findEntity } from '../../storage/repositories/entities.js';
import { upsertSettlementFees } from '../../storage/repositories/settlement-fees.js';
import type { OperationDeps } from '../deps.js';

export interface FeeInput {
  readonly merchantId: string;
  /** Per settled transaction, e.g. "0.25". */
  readonly fixed: string;
  /** Of the amount, in basis points (190 = 1.90 %). */
  readonly rateBasisPoints: string;
  /** The merchant's settlement currency; absent: EUR. */
  readonly currency?: string | undefined;
}

function invalid(name: string, value: string, message: string): GatewayError {
  return new GatewayError('200.300.404', { parameterErrors: [{ name, value: value.slice(0, 32), message }] });
}

/** The simulated acquirer's fee table (test system): what it charges a merchant, in which currency it settles. */
export async function setSettlementFees(deps: OperationDeps, input: FeeInput): Promise<Record<string, string>> {
  if (!ENTITY_ID_PATTERN.test(input.merchantId)) throw invalid('merchant', input.merchantId, 'must be a merchant entity id');
  const fixedMinor = tryParseAmount(input.fixed);
  if (fixedMinor === undefined) throw invalid('fixed', input.fixed, 'must be an amount such as 0.25');
  if (!/^[0-9]{1,5}$/.test(input.rateBasisPoints) || Number(input.rateBasisPoints) > 10_000) throw invalid('rate-bp', input.rateBasisPoints, 'must be 0 to 10000 basis points');
  if (input.currency !== undefined && !/^[A-Z]{3}$/.test(input.currency)) throw invalid('currency', input.currency, 'must be an ISO 4217 code');
  const merchant = await findEntity(deps.storage, input.merchantId);
  if (!merchant || merchant.kind !== 'merchant') throw invalid('merchant', input.merchantId, 'no merchant entity has this id');
  await upsertSettlementFees(deps.storage, { merchantId: input.merchantId, fixedMinor, rateBasisPoints: Number(input.rateBasisPoints), currency: input.currency ?? null });
  return { merchantId: input.merchantId, fixed: input.fixed, rateBasisPoints: input.rateBasisPoints, currency: input.currency ?? 'EUR' };
}
