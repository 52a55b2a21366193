import type { ConnectorRouter } from '../../connectors/router.js';
import type { Vault } from '../../domain/vault/index.js';
import type { OperationDeps } from '../deps.js';

/** What the route operations use: the vault seals credentials, the router is told of every change. */
export interface RoutingDeps extends OperationDeps {
  readonly connectors: ConnectorRouter;
  readonly vault: Vault;
}
