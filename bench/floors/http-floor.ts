import { FORM_CONTENT_TYPE, runPhase, type PhaseResult } from '../load.js';
import { startNodeProcess } from '../support/node-process.js';

/** The same form body the gateway's payment phase sends, posted to a route that does nothing. */
export async function measureHttpFloor(options: { connections: number; durationSeconds: number; body: string }): Promise<PhaseResult> {
  const server = await startNodeProcess({ script: 'bench/floors/http-floor-server.ts', env: {}, readyPath: '/' });
  try {
    return await runPhase({
      name: 'floor: bare Fastify form POST',
      url: server.url,
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      pid: server.pid,
      request: () => ({ method: 'POST', path: '/v1/payments', body: options.body, headers: { 'content-type': FORM_CONTENT_TYPE } }),
    });
  } finally {
    await server.stop();
  }
}
