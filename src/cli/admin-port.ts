import type { ThreeDSecureSetting } from '../operations/admin/set-three-d-secure.js';
import type { UnknownParametersSetting } from '../operations/admin/set-unknown-parameters.js';
import type { CreatedAccessToken } from '../operations/admin/create-access-token.js';
import type { CreatedEntity, CreateEntityInput } from '../operations/admin/create-entity.js';
import type { EntitySummary } from '../operations/admin/list-entities.js';
import type { LegacyAuthSetting } from '../operations/admin/set-legacy-auth.js';
import type { ConnectorDetailsSetting } from '../operations/admin/set-connector-details.js';
import type { MerchantBankAccountInput, MerchantBankAccountSetting } from '../operations/admin/set-merchant-bank-account.js';

/** What the command line needs, whether it talks to the database or to a running gateway. */
export interface AdminPort {
  createEntity(input: CreateEntityInput): Promise<CreatedEntity>;
  listEntities(): Promise<EntitySummary[]>;
  createToken(entityId: string): Promise<CreatedAccessToken>;
  revokeToken(tokenId: string): Promise<{ tokenId: string; revoked: true }>;
  setLegacyAuth(entityId: string, enabled: boolean): Promise<LegacyAuthSetting>;
  setUnknownParameters(entityId: string, mode: string): Promise<UnknownParametersSetting>;
  setThreeDSecure(entityId: string, requirement: string): Promise<ThreeDSecureSetting>;
  setConnectorDetails(entityId: string, shown: boolean): Promise<ConnectorDetailsSetting>;
  /** null removes the account. */
  setBankAccount(entityId: string, account: MerchantBankAccountInput | null): Promise<MerchantBankAccountSetting>;
  close(): Promise<void>;
}
