import type { TokenPrincipal } from '../storage/repositories/access-tokens.js';
import type { AppDeps } from '../app.js';

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
  }
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
}
