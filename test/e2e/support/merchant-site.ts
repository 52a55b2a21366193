import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Merchant } from './gateway.js';
import { checkoutPage, redirectPage, resultPage, type Redirect } from './merchant-pages.js';

/** What the gateway answered, as the merchant's server saw it. */
export interface GatewayAnswer {
  readonly status: number;
  readonly body: Record<string, any>;
}

/** The shopper's return to shopperResultUrl and the status call the merchant made on it. */
export interface ShopperReturn {
  /** The `id` and `resourcePath` the gateway added to shopperResultUrl (null when missing). */
  readonly id: string | null;
  readonly resourcePath: string | null;
  /** Every query parameter the return carried, the merchant's own `order` among them. */
  readonly query: Readonly<Record<string, string>>;
  /** `GET {gateway}{resourcePath}?entityId=…` with the bearer token. */
  readonly status: GatewayAnswer | undefined;
}

/** One checkout: what the merchant sends to POST /v1/payments and what came of it. */
export interface Order {
  readonly id: string;
  readonly parameters: Readonly<Record<string, string>>;
  /** Adds customer.browser.* from the shopper's browser, as 3-D Secure v2 requires. */
  readonly collectBrowserData: boolean;
  /** The answer to POST /v1/payments, once the shopper pressed "Pay". */
  initial?: GatewayAnswer;
  readonly returns: ShopperReturn[];
}

/**
 * A small merchant web shop, as a merchant's integration of redirects works: the shopper presses
 * "Pay" on its checkout page, its server creates the payment at the gateway and sends the browser
 * on to `redirect` with an auto-submitted form, the provider or ACS sends the shopper back to its
 * shopperResultUrl, where its server asks the gateway for the payment's status and thanks the
 * shopper. node:http on 127.0.0.1, port 0.
 */
export class MerchantSite {
  private readonly orders = new Map<string, Order>();
  private server: Server | undefined;
  private origin = '';

  private constructor(
    private readonly gatewayUrl: string,
    private readonly merchant: Merchant,
  ) {}

  static async start(gatewayUrl: string, merchant: Merchant): Promise<MerchantSite> {
    const site = new MerchantSite(gatewayUrl, merchant);
    await site.listen();
    return site;
  }

  /** Opens an order; the shopper starts at checkoutUrl(order). */
  order(parameters: Record<string, string>, options: { collectBrowserData?: boolean } = {}): Order {
    const order: Order = { id: randomBytes(8).toString('hex'), parameters, collectBrowserData: options.collectBrowserData ?? false, returns: [] };
    this.orders.set(order.id, order);
    return order;
  }

  checkoutUrl(order: Order): string {
    return `${this.origin}/checkout/${order.id}`;
  }

  /** The merchant's shopperResultUrl for an order: it has a query of its own, as many shops' do. */
  resultUrl(order: Order): string {
    return `${this.origin}/result?order=${order.id}`;
  }

  /** The shop's "continue your payment" link: the order's redirect sent again, as a stored link or the Back button would. */
  continueUrl(order: Order): string {
    return `${this.origin}/continue/${order.id}`;
  }

  get url(): string {
    return this.origin;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private listen(): Promise<void> {
    const server = createServer((request, response) => {
      this.handle(request, response).catch((error: Error) => send(response, 500, `<pre>${error.stack ?? error.message}</pre>`));
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        resolve();
      });
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    const [, section, orderId] = url.pathname.split('/');
    if (request.method === 'GET' && section === 'checkout') return this.checkout(response, this.orders.get(orderId ?? ''));
    if (request.method === 'POST' && section === 'pay') return this.pay(request, response, this.orders.get(orderId ?? ''));
    if (request.method === 'GET' && section === 'result') return this.result(response, url);
    if (request.method === 'GET' && section === 'continue') return this.continuePayment(response, this.orders.get(orderId ?? ''));
    if (url.pathname === '/favicon.ico') return void response.writeHead(204).end();
    send(response, 404, '<h1>Not found</h1>');
  }

  private checkout(response: ServerResponse, order: Order | undefined): void {
    if (!order) return send(response, 404, '<h1>No such order</h1>');
    send(response, 200, checkoutPage(order));
  }

  private async pay(request: IncomingMessage, response: ServerResponse, order: Order | undefined): Promise<void> {
    if (!order) return send(response, 404, '<h1>No such order</h1>');
    const form = new URLSearchParams(await bodyOf(request));
    const parameters: Record<string, string> = {
      entityId: this.merchant.entityId,
      ...order.parameters,
      shopperResultUrl: this.resultUrl(order),
      ...(order.collectBrowserData ? browserDataOf(request, form) : {}),
    };
    order.initial = await this.callGateway('POST', '/v1/payments', parameters);
    const redirect = order.initial.body['redirect'] as Redirect | undefined;
    if (!redirect) return send(response, 200, resultPage(order.initial.body, 'The payment did not ask for a redirect.'));
    send(response, 200, redirectPage(redirect));
  }

  private continuePayment(response: ServerResponse, order: Order | undefined): void {
    const redirect = order?.initial?.body['redirect'] as Redirect | undefined;
    if (!redirect) return send(response, 404, '<h1>No payment to continue</h1>');
    send(response, 200, redirectPage(redirect));
  }

  private async result(response: ServerResponse, url: URL): Promise<void> {
    const query = Object.fromEntries(url.searchParams);
    const order = this.orders.get(query['order'] ?? '');
    if (!order) return send(response, 404, '<h1>No such order</h1>');
    const id = url.searchParams.get('id');
    const resourcePath = url.searchParams.get('resourcePath');
    // The shopper's return says nothing about the outcome: only the server-side status call does.
    const status = resourcePath?.startsWith('/') ? await this.callGateway('GET', resourcePath) : undefined;
    order.returns.push({ id, resourcePath, query, status });
    send(response, 200, resultPage(status?.body, status ? undefined : 'The return carried no resourcePath.'));
  }

  private async callGateway(method: 'GET' | 'POST', path: string, form?: Record<string, string>): Promise<GatewayAnswer> {
    const url = new URL(path, this.gatewayUrl);
    if (method === 'GET') url.searchParams.set('entityId', this.merchant.entityId);
    const response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${this.merchant.accessToken}`, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }
}

/** customer.browser.*: the headers from the shopper's request, the rest from the checkout page's script. */
function browserDataOf(request: IncomingMessage, form: URLSearchParams): Record<string, string> {
  const fromPage = ['language', 'screenHeight', 'screenWidth', 'timezone', 'javaEnabled'] as const;
  return {
    'customer.browser.acceptHeader': request.headers.accept ?? '*/*',
    'customer.browser.userAgent': request.headers['user-agent'] ?? '',
    ...Object.fromEntries(fromPage.map((name) => [`customer.browser.${name}`, form.get(name) ?? ''])),
  };
}

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
}
