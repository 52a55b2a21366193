import type { TokenPrincipal } from '../storage/repositories/access-tokens.js';
import type { AppDeps } from '../app.js';
import type { UnknownParameterMode } from '../catalogue/types.js';

/** Who may call a route: merchants with an access token, the operator, or anyone. */
export type RouteAuth = 'entity' | 'admin' | 'public';

declare module 'fastify' {
  interface FastifyInstance {
    gateway: AppDeps;
  }
  interface FastifyRequest {
    principal: TokenPrincipal | undefined;
    /** The entity the request acts for, once authorised. */
    entityId: string | undefined;
    /** The entity's unknown-parameter setting, once authorised (http/plugins/unknown-parameters.ts). */
    unknownParameters: UnknownParameterMode | undefined;
    /** Names the catalogue left out under the 'ignore' setting; the answer lists them. */
    ignoredParameters: readonly string[] | undefined;
  }
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** The route reads over the entity hierarchy (reports): PSP and division credentials may call it. */
    hierarchyRead?: boolean;
    /** The route answers over plain HTTP on the live system too (an orchestrator's probes reach the process directly). */
    plainHttpAllowed?: boolean;
    /** A public route that carries payment parameters (the widget's posts): the live system refuses testMode on it as on the merchant's API. */
    refusesTestModeOnLive?: boolean;
  }
}
