import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import cookie from '@fastify/cookie';
import { registerConsoleAccess } from './console-access.js';
import { createConsoleServices } from './sessions/console-services.js';
import { registerConsoleSessions } from './sessions/session-hook.js';
import './route-config.js';

/** A console route as registered: tests enumerate them (CSRF on every change, access on every page). */
export interface ConsoleRoute {
  readonly method: string;
  readonly url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every console route, filled as areas register them. */
    consoleRoutes: ConsoleRoute[];
  }
}

/**
 * The console's pages may load their own stylesheet and script and nothing else: no inline
 * script or style, no other origin, no framing (clickjacking a refund button), forms post back
 * to the console only.
 */
const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const ASSETS: Readonly<Record<string, { readonly type: string; readonly body: Buffer }>> = {
  'console.css': { type: 'text/css; charset=utf-8', body: readFileSync(new URL('./assets/console.css', import.meta.url)) },
  'console.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('./assets/console.js', import.meta.url)) },
  // The overview's charts: Chart.js as its package ships it (UMD, minified), from node_modules
  // (beside both src/ and dist/), served from the console's own origin as CSP asks.
  'chart.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('../../node_modules/chart.js/dist/chart.umd.min.js', import.meta.url)) },
  'overview.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('./assets/overview.js', import.meta.url)) },
};

/** An area of the console: registers its routes, each declaring its `console` access. */
export type ConsoleArea = (app: FastifyInstance) => void;

/**
 * The console, in an encapsulated context of its own so that its hooks (session, access, CSP)
 * touch its routes only. Areas are registered in the order of the navigation.
 */
export async function registerConsole(app: FastifyInstance, areas: readonly ConsoleArea[]): Promise<void> {
  const routes: ConsoleRoute[] = [];
  app.decorate('consoleRoutes', routes);
  await app.register(async (console) => {
    console.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
    await console.register(cookie);
    console.decorate('consoleServices', createConsoleServices(app));
    console.addHook('onRequest', (_request, reply, done) => {
      reply.headers({ 'content-security-policy': CONSOLE_CSP, 'x-frame-options': 'DENY', 'referrer-policy': 'same-origin' });
      done();
    });
    console.get<{ Params: { name: string } }>('/console/assets/:name', { config: { console: 'anonymous' } }, async (request, reply) => {
      const asset = ASSETS[request.params.name];
      if (!asset) return reply.code(404).type('text/plain').send('Not found');
      return reply.header('cache-control', 'public, max-age=300').type(asset.type).send(asset.body);
    });
    console.decorateRequest('consoleUser', undefined);
    // The session (who asks) and the CSRF check run before the one access check.
    registerConsoleSessions(console);
    registerConsoleAccess(console);
    for (const area of areas) area(console);
  });
}
