import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { maskPanLikeDigits } from '../../domain/redact.js';
import { checkMerchantBankAccount, type MerchantBankAccount } from '../../domain/responses/merchant-bank-account.js';
import { GatewayError } from '../../results/gateway-error.js';
import { updatePayoutBankAccount } from '../../storage/repositories/entity-settings.js';
import type { OperationDeps } from '../deps.js';

export interface MerchantBankAccountSetting {
  readonly entityId: string;
  /** null once removed. */
  readonly bankAccount: MerchantBankAccount | null;
}

export type MerchantBankAccountInput = Readonly<Record<'holder' | 'number' | 'bic' | 'country', string | undefined>>;

function noEntity(entityId: string): GatewayError {
  return new GatewayError('200.300.406', {
    httpStatus: 404,
    parameterErrors: [{ name: 'entity', value: maskPanLikeDigits(entityId).slice(0, 64), message: 'no entity has this id' }],
  });
}

/**
 * Sets the account the entity's shoppers pay into for PREPAYMENT (merchant.bankAccount.* of the
 * answer); a channel without one of its own uses its merchant's. `null` removes it.
 */
export async function setMerchantBankAccount(deps: Pick<OperationDeps, 'storage'>, entityId: string, input: MerchantBankAccountInput | null): Promise<MerchantBankAccountSetting> {
  let account: MerchantBankAccount | null = null;
  if (input !== null) {
    const checked = checkMerchantBankAccount(input);
    if ('problems' in checked) throw new GatewayError('200.300.404', { parameterErrors: checked.problems });
    account = checked.account;
  }
  if (!ENTITY_ID_PATTERN.test(entityId)) throw noEntity(entityId);
  const updated = await updatePayoutBankAccount(deps.storage, entityId, account as Readonly<Record<string, string>> | null);
  if (!updated) throw noEntity(entityId);
  return { entityId, bankAccount: account };
}
