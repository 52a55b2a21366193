import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { startGatewayWithWebhook, type GatewayWithWebhook } from './gateway.js';
import { escapeHtml } from './merchant-pages.js';
import { merchantCall } from './widget-checkout.js';

/**
 * A merchant's checkout page with the hosted payment widget, as docs/widget.md tells merchants to
 * write it: the documented Content-Security-Policy with a nonce, wpwlOptions, the script tag with
 * integrity, and `form.paymentWidgets` whose action is the shop's result page. A spy of the
 * merchant's own script records every message the page receives and everything it can reach,
 * for the test that the card number and CVV never enter the page. node:http on `localhost`
 * (another site than the gateway's 127.0.0.1).
 */

export interface ShopPage {
  readonly checkoutId: string;
  readonly brands: string;
  readonly options?: Readonly<Record<string, unknown>>;
  readonly integrity?: string;
  /** `customParameters[…]` inputs of the merchant's form. */
  readonly customParameters?: Readonly<Record<string, string>>;
  /** The form's action, when not the shop's own result page (another origin …). */
  readonly action?: string;
  /** onBeforeSubmitCard answers false: the payment must not be sent. */
  readonly cancelCardSubmit?: boolean;
  /** More of the shop's own CSS (its brand's --wpwl-* variables, a dark page …). */
  readonly pageCss?: string;
}

export interface ShopReturn {
  readonly query: Readonly<Record<string, string>>;
  /** What the shop's server learnt from its status call, when it has one. */
  readonly status?: { readonly status: number; readonly body: Record<string, any> } | undefined;
}

export type StatusCall = (resourcePath: string) => Promise<{ status: number; body: Record<string, any> }>;

export class WidgetShop {
  readonly returns: ShopReturn[] = [];
  private readonly pages = new Map<string, ShopPage>();
  private server: Server | undefined;
  private origin = '';

  private constructor(
    private readonly gatewayUrl: string,
    private readonly statusCall: StatusCall | undefined,
  ) {}

  static async start(gatewayUrl: string, statusCall?: StatusCall): Promise<WidgetShop> {
    const shop = new WidgetShop(gatewayUrl, statusCall);
    await shop.listen();
    return shop;
  }

  get url(): string {
    return this.origin;
  }

  /** Registers a page and answers its address. */
  page(page: ShopPage): string {
    const id = randomBytes(6).toString('hex');
    this.pages.set(id, page);
    return `${this.origin}/checkout/${id}`;
  }

  resultUrl(): string {
    return `${this.origin}/result?order=42`;
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
      this.handle(request, response).catch((error: Error) => send(response, 500, `<pre>${escapeHtml(error.stack ?? error.message)}</pre>`));
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        this.origin = `http://localhost:${(server.address() as AddressInfo).port}`;
        resolve();
      });
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    const [, section, id] = url.pathname.split('/');
    if (section === 'checkout') {
      const page = this.pages.get(id ?? '');
      if (!page) return send(response, 404, 'no such page');
      const nonce = randomBytes(16).toString('base64');
      return send(response, 200, this.checkoutHtml(page, nonce), { 'content-security-policy': merchantPolicy(this.gatewayUrl, nonce) });
    }
    if (section === 'result') {
      const query = Object.fromEntries(url.searchParams);
      const resourcePath = url.searchParams.get('resourcePath');
      const status = this.statusCall && resourcePath?.startsWith('/v1/checkouts/') ? await this.statusCall(resourcePath) : undefined;
      this.returns.push({ query, status });
      const code = String(status?.body['result']?.code ?? '');
      return send(response, 200, `<!doctype html><meta charset="utf-8"><title>Result</title><h1 data-testid="result">Result</h1><p>Checkout <code data-testid="checkout-id">${escapeHtml(query['id'] ?? '')}</code></p><p>Result <code data-testid="result-code">${escapeHtml(code)}</code></p>`);
    }
    send(response, 404, 'not found');
  }

  private checkoutHtml(page: ShopPage, nonce: string): string {
    const script = new URL(`/v1/paymentWidgets.js?checkoutId=${encodeURIComponent(page.checkoutId)}`, this.gatewayUrl).href;
    const options = JSON.stringify(page.options ?? {}).replace(/</g, '\\u003c');
    const custom = Object.entries(page.customParameters ?? {})
      .map(([name, value]) => `<input type="hidden" name="customParameters[${escapeHtml(name)}]" value="${escapeHtml(value)}">`)
      .join('');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop checkout</title>
<style nonce="${nonce}">body{font-family:"DejaVu Sans",sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#222}${(page.pageCss ?? '').replace(/</g, '')}</style>
<script nonce="${nonce}">
window.__seen = [];
window.addEventListener('message', function (event) { window.__seen.push(typeof event.data === 'string' ? event.data : JSON.stringify(event.data)); });
var wpwlOptions = Object.assign(${options}, {
  onReady: function () { window.__readyAt = performance.now(); },
  onBeforeSubmitCard: function () { window.__beforeSubmit = (window.__beforeSubmit || 0) + 1; return ${page.cancelCardSubmit ? 'false' : 'true'}; }
});
</script>
<script src="${escapeHtml(script)}"${page.integrity ? ` integrity="${escapeHtml(page.integrity)}"` : ''} crossorigin="anonymous"></script>
</head><body><h1>Your order</h1><p>Total: 92.00 EUR</p>
<form action="${escapeHtml(page.action ?? this.resultUrl())}" class="paymentWidgets" data-brands="${escapeHtml(page.brands)}">${custom}</form>
</body></html>`;
  }
}

/** The policy docs/widget.md gives merchants: the gateway for script, frame and connect; a nonce for inline scripts. */
export function merchantPolicy(gatewayUrl: string, nonce: string): string {
  const gateway = new URL(gatewayUrl).origin;
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' ${gateway}`,
    `style-src 'self' 'nonce-${nonce}'`,
    `frame-src ${gateway}`,
    `connect-src 'self' ${gateway}`,
    `img-src 'self' data:`,
    `form-action 'self' ${gateway}`,
    "base-uri 'self'",
  ].join('; ');
}

function send(response: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(html);
}

/** What useWidgetShop() started: read inside a test or hook, never at the describe's top. */
export interface WidgetShopSetup {
  /** The real gateway with the merchant's webhook. */
  readonly env: GatewayWithWebhook;
  /** The merchant's shop, whose server asks the gateway for the payment's status on its result page. */
  readonly shop: WidgetShop;
}

/**
 * A real gateway (startGatewayWithWebhook) and the shop of the widget's pages for the calling
 * describe(): started in `before`, stopped in `after`, as useBrowser() does for Chromium.
 */
export function useWidgetShop(): WidgetShopSetup {
  let env: GatewayWithWebhook | undefined;
  let shop: WidgetShop | undefined;
  before(async () => {
    const started = await startGatewayWithWebhook();
    env = started;
    shop = await WidgetShop.start(started.gateway.url, (resourcePath) => merchantCall(started.gateway.url, started.merchant, 'GET', resourcePath));
  });
  after(async () => {
    await shop?.stop();
    await env?.stop();
  });
  const notRunning = (): never => {
    throw new Error('the gateway and shop are not running: call useWidgetShop() at the top of a describe() and read it inside a test');
  };
  return {
    get env() {
      return env ?? notRunning();
    },
    get shop() {
      return shop ?? notRunning();
    },
  };
}
