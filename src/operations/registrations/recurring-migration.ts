import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import { formatAmount } from '../../domain/money.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { RegistrableAccount } from './account-data.js';

/** The initial transaction of a series made elsewhere, as a recurring migration brings it. */
export interface MigratedInitial {
  readonly record: Readonly<Record<string, string>>;
  /** Card accounts: the scheme reference later MITs send (connectorTxId1). */
  readonly schemeReference: string | undefined;
}

function timestampOf(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')}+0000`;
}

/**
 * recurringMigration.*: a registration carrying the data of an INITIAL transaction made at
 * another provider. For cards, connectorTxId1 must hold that transaction's scheme reference
 * (network transaction id): without it no MIT could follow. Virtual accounts have no recurring
 * scheme to migrate (100.350.602).
 */
export function migratedInitialOf(request: PaymentRequest, account: RegistrableAccount): MigratedInitial | undefined {
  const migration = request.recurringMigration;
  if (!migration) return undefined;
  if (account.method === 'virtualAccount') throw new GatewayError('100.350.602');
  const cardLike = account.method === 'card' || account.method === 'tokenAccount';
  if (cardLike && !migration.connectorTxId1) {
    throw new GatewayError('200.300.404', {
      parameterErrors: [{ name: 'recurringMigration.connectorTxId1', value: '', message: 'is required: the scheme reference of the initial card payment' }],
    });
  }
  const record: Record<string, string> = {
    ...(migration.paymentType ? { paymentType: migration.paymentType } : {}),
    ...(migration.amount !== undefined ? { amount: formatAmount(migration.amount) } : {}),
    ...(migration.requestTimestamp ? { requestTimestamp: timestampOf(migration.requestTimestamp) } : {}),
    ...(migration.connectorTxId1 ? { connectorTxId1: migration.connectorTxId1 } : {}),
    ...(migration.connectorTxId2 ? { connectorTxId2: migration.connectorTxId2 } : {}),
    ...(migration.connectorTxId3 ? { connectorTxId3: migration.connectorTxId3 } : {}),
  };
  return { record, schemeReference: cardLike ? migration.connectorTxId1 : undefined };
}
