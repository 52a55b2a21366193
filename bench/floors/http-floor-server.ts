/**
 * The HTTP floor: Fastify with the same form parser as the gateway and a route that does no
 * work. What the gateway costs above this is the gateway's own, not Node's or Fastify's.
 * Runs as its own process (`node --import tsx bench/floors/http-floor-server.ts`, PORT=0).
 */
import formbody from '@fastify/formbody';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
await app.register(formbody);
app.post('/v1/payments', async (request) => ({ id: 'floor', fields: Object.keys(request.body as object).length }));
app.get('/', async () => ({ status: 'ok' }));
await app.listen({ host: process.env['HOST'] ?? '127.0.0.1', port: Number(process.env['PORT'] ?? 0) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
