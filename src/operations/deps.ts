import type { Clock, IdGenerator } from '../domain/ids.js';
import type { Storage } from '../storage/port.js';

/** What every operation may use; the composition root (app.ts / main.ts) supplies the adapters. */
export interface OperationDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}
