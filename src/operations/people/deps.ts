import type { Clock, IdGenerator } from '../../domain/ids.js';
import type { Vault } from '../../domain/vault/index.js';
import type { Storage } from '../../storage/port.js';

/** What the people operations need: the database, time, ids, and the vault that seals TOTP secrets. */
export interface PeopleDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: Pick<IdGenerator, 'id'>;
  readonly vault: Vault;
}
