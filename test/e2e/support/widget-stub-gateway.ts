import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { registerWidgetRoutes } from '../../../src/http/routes/widget.js';

/**
 * The checkout endpoints the widget talks to, as their contract says (docs/widget.md), stubbed in
 * the test beside the gateway's real widget routes: enough to drive the browser side alone.
 * Card numbers decide as the simulator's do (docs/simulator.md): 4000000000000002 declines,
 * 4200000000000042 asks for a 3-D Secure challenge (a POST redirect), PAYPAL redirects by GET;
 * 4012888888881881 is refused with a parameterError at card.number, as a server check would.
 */

export interface StubCheckout {
  readonly id: string;
  state: 'open' | 'paid' | 'expired';
  readonly registrations: readonly Record<string, string>[];
  /** The shopper's country the checkout names (its billing or shipping address), when it names one. */
  readonly country?: string;
  /** Every payment request the widget sent, as the stub received it. */
  readonly payments: Record<string, string>[];
}

export interface StubGateway {
  readonly app: FastifyInstance;
  readonly url: string;
  checkout(options?: { registrations?: readonly Record<string, string>[]; state?: StubCheckout['state']; country?: string }): StubCheckout;
  stop(): Promise<void>;
}

const CORS = { 'access-control-allow-origin': '*' };

export async function startStubGateway(): Promise<StubGateway> {
  const checkouts = new Map<string, StubCheckout>();
  const app = Fastify({ logger: false });
  await app.register(formbody);
  registerWidgetRoutes(app);

  app.get<{ Params: { id: string } }>('/v1/checkouts/:id/widget', async (request, reply) => {
    const checkout = checkouts.get(request.params.id);
    if (!checkout || checkout.state === 'expired') return reply.code(400).headers(CORS).send({ result: { code: '200.300.404', description: 'invalid or missing parameter' } });
    return reply.headers(CORS).send({ id: checkout.id, amount: '92.00', currency: 'EUR', paymentType: 'DB', state: checkout.state, expiresAt: new Date(Date.now() + 1_800_000).toISOString(), registrations: checkout.registrations, ...(checkout.country ? { shopperCountry: checkout.country } : {}) });
  });

  app.post<{ Params: { id: string }; Body: Record<string, string> }>('/v1/checkouts/:id/payment', async (request, reply) => {
    reply.headers(CORS);
    const checkout = checkouts.get(request.params.id);
    if (!checkout || checkout.state !== 'open') return reply.code(400).send({ result: { code: '200.300.404', description: 'invalid or missing parameter' } });
    const body = { ...request.body };
    checkout.payments.push(body);
    const refused = Object.keys(body).find((name) => /^customParameters\[/.test(name) && !name.startsWith('customParameters[SHOPPER_'));
    if (refused) return reply.code(400).send(parameterError(refused, 'must start with SHOPPER_'));
    if (body['card.number'] === '4012888888881881') return reply.code(400).send(parameterError('card.number', 'invalid card number'));
    const paymentId = randomBytes(16).toString('hex');
    const base = { id: paymentId, paymentBrand: body['paymentBrand'], amount: '92.00', currency: 'EUR' };
    if (body['card.number'] === '4000000000000002') return reply.code(400).send({ ...base, result: { code: '800.100.100', description: 'transaction declined for unknown reason' } });
    const resultUrl = `${body['shopperResultUrl'] ?? ''}${String(body['shopperResultUrl']).includes('?') ? '&' : '?'}id=${checkout.id}&resourcePath=${encodeURIComponent(`/v1/checkouts/${checkout.id}/payment`)}`;
    if (body['card.number'] === '4200000000000042') {
      return reply.send({ ...base, result: { code: '000.200.000', description: 'transaction pending' }, redirect: { url: `${gatewayUrl()}/stub/acs`, method: 'POST', parameters: [{ name: 'creq', value: 'abc' }, { name: 'back', value: resultUrl }] } });
    }
    if (body['paymentBrand'] === 'PAYPAL') {
      return reply.send({ ...base, result: { code: '000.200.000', description: 'transaction pending' }, redirect: { url: `${gatewayUrl()}/stub/provider?ref=1&back=${encodeURIComponent(resultUrl)}`, method: 'GET', parameters: [] } });
    }
    checkout.state = 'paid';
    return reply.send({ ...base, result: { code: '000.100.110', description: "Request successfully processed in 'Merchant in Integrator Test Mode'" } });
  });

  // The ACS and the provider: a page with a link back, as the gateway's own pages end in the return.
  for (const [method, path] of [['POST', '/stub/acs'], ['GET', '/stub/provider']] as const) {
    app.route({
      method,
      url: path,
      handler: async (request, reply) => {
        const fields = { ...(request.query as Record<string, string>), ...((request.body as Record<string, string>) ?? {}) };
        const back = String(fields['back'] ?? '');
        return reply.type('text/html').send(`<!doctype html><title>${path}</title><h1 data-testid="stub-page">${path} ${method}</h1><pre data-testid="fields">${JSON.stringify(fields).replace(/</g, '&lt;')}</pre><a id="back" href="${back.replace(/"/g, '&quot;')}">back</a>`);
      },
    });
  }

  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const gatewayUrl = () => address;
  return {
    app,
    url: address,
    checkout(options = {}) {
      const id = `${randomBytes(16).toString('hex').toUpperCase()}.uat01-vm-tx01`;
      const checkout: StubCheckout = { id, state: options.state ?? 'open', registrations: options.registrations ?? [], ...(options.country ? { country: options.country } : {}), payments: [] };
      checkouts.set(id, checkout);
      return checkout;
    },
    stop: () => app.close(),
  };
}

function parameterError(name: string, message: string): Record<string, unknown> {
  return { result: { code: '200.300.404', description: 'invalid or missing parameter', parameterErrors: [{ name, value: 'masked', message }] } };
}
