/**
 * The widget's rows of `npm run bench` (and on its own: `npm run bench:widget`): the gzipped size
 * of paymentWidgets.js (target under 40 KB) and the time from the script's request to a usable
 * form (onReady: the forms drawn and the gateway's card frames loaded and answering), in headless
 * Chromium, median of BENCH_WIDGET_LOADS (20) loads, each in a fresh browser context (cold cache,
 * as a shopper's first visit); a row per layout (OPPWA's forms, tabs, accordion: one script, so
 * one size), their loads taken in turn so that a busy moment of the machine falls on all alike.
 * The gateway's real widget routes serve the script and frames; the checkout's bootstrap answer
 * is stubbed (its server cost is the checkouts row's), so the rows measure the browser side. Needs Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
 */
import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { registerWidgetRoutes } from '../src/http/routes/widget.js';
import { loadWidgetScript } from '../src/http/widget/script-asset.js';
import type { PhaseResult } from './load.js';

const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const LOADS = Number(process.env['BENCH_WIDGET_LOADS'] ?? 20);
const CHECKOUT_ID = '8A82944A4CC25EBF014CC2C782423202.uat01-vm-tx04';

/** wpwlOptions.layout of each row; 'forms' is the default layout (no option). */
export const WIDGET_LAYOUTS = ['forms', 'tabs', 'accordion'] as const;
export type WidgetLayout = (typeof WIDGET_LAYOUTS)[number];

export interface WidgetMeasurement {
  readonly layout: WidgetLayout;
  readonly gzippedBytes: number;
  readonly rawBytes: number;
  readonly loadToUsableMs: { readonly median: number; readonly p90: number; readonly max: number };
  readonly phase: PhaseResult;
}

function merchantPage(gatewayUrl: string, integrity: string, layout: WidgetLayout): string {
  const option = layout === 'forms' ? '' : `layout: '${layout}', `;
  return `<!doctype html><html><head><meta charset="utf-8"><title>bench</title>
<script>var wpwlOptions = { ${option}onReady: function () { window.__readyAt = performance.now(); } };</script>
<script src="${gatewayUrl}/v1/paymentWidgets.js?checkoutId=${CHECKOUT_ID}" integrity="${integrity}" crossorigin="anonymous"></script>
</head><body><form action="/result" class="paymentWidgets" data-brands="VISA MASTER AMEX PAYPAL"></form></body></html>`;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

/** One cold load of the shop's page with `layout`: milliseconds from the script's request to onReady. */
async function loadOnce(browser: Browser, shopUrl: string, layout: WidgetLayout): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${shopUrl}/?layout=${layout}`);
    await page.waitForFunction(() => (window as { __readyAt?: number }).__readyAt !== undefined, undefined, { timeout: 15_000 });
    return await page.evaluate(() => {
      const entry = performance.getEntriesByType('resource').find((resource) => resource.name.includes('paymentWidgets.js'))!;
      return (window as unknown as { __readyAt: number }).__readyAt - entry.startTime;
    });
  } finally {
    await context.close();
  }
}

/** A measurement per layout; none without Chromium. */
export async function measureWidget(loads = LOADS, layouts: readonly WidgetLayout[] = WIDGET_LAYOUTS): Promise<WidgetMeasurement[]> {
  if (!existsSync(CHROMIUM_PATH)) {
    console.log(`widget rows left out: no Chromium at ${CHROMIUM_PATH}`);
    return [];
  }
  const script = loadWidgetScript();
  const gateway = Fastify({ logger: false });
  await gateway.register(formbody);
  registerWidgetRoutes(gateway);
  gateway.get('/v1/checkouts/:id/widget', (_request, reply) =>
    reply.header('access-control-allow-origin', '*').send({ id: CHECKOUT_ID, amount: '92.00', currency: 'EUR', paymentType: 'DB', state: 'open', expiresAt: new Date(Date.now() + 1_800_000).toISOString(), registrations: [] }),
  );
  const gatewayUrl = await gateway.listen({ port: 0, host: '127.0.0.1' });
  const shop = Fastify({ logger: false });
  shop.get<{ Querystring: { layout?: string } }>('/', (request, reply) => {
    const layout = WIDGET_LAYOUTS.find((name) => name === request.query.layout) ?? 'forms';
    return reply.type('text/html').send(merchantPage(gatewayUrl, script.integrity, layout));
  });
  const shopUrl = (await shop.listen({ port: 0, host: '127.0.0.1' })).replace('127.0.0.1', 'localhost');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  const times = new Map<WidgetLayout, number[]>(layouts.map((layout) => [layout, []]));
  try {
    for (let index = 0; index < loads; index += 1) {
      for (const layout of layouts) times.get(layout)!.push(await loadOnce(browser, shopUrl, layout));
    }
  } finally {
    await browser.close();
    await shop.close();
    await gateway.close();
  }
  const gzippedBytes = gzipSync(script.bytes, { level: 9 }).length;
  return layouts.map((layout) => measurementOf(layout, times.get(layout)!, gzippedBytes, script.bytes.length));
}

function measurementOf(layout: WidgetLayout, times: readonly number[], gzippedBytes: number, rawBytes: number): WidgetMeasurement {
  const sorted = [...times].sort((a, b) => a - b);
  const median = percentile(sorted, 0.5);
  const total = times.reduce((sum, time) => sum + time, 0);
  // The default layout's row keeps its old name, so the runs before the layouts compare with it.
  const what = layout === 'forms' ? 'widget' : `widget, layout ${layout}`;
  return {
    layout,
    gzippedBytes,
    rawBytes,
    loadToUsableMs: { median, p90: percentile(sorted, 0.9), max: sorted.at(-1)! },
    phase: {
      name: `${what}: script → usable form, Chromium (${(gzippedBytes / 1024).toFixed(1)} KB gzipped)`,
      connections: 1,
      durationSeconds: total / 1000,
      requests: times.length,
      requestsPerSecond: times.length / (total / 1000),
      latencyMs: { p50: median, p99: percentile(sorted, 0.99), p99_9: sorted.at(-1)!, max: sorted.at(-1)! },
      errors: 0,
      timeouts: 0,
      non2xx: 0,
      statusCodes: {},
    },
  };
}

export function describeWidget(measurement: WidgetMeasurement): string {
  const { median, p90, max } = measurement.loadToUsableMs;
  return `${measurement.layout}: paymentWidgets.js ${measurement.rawBytes} bytes, ${measurement.gzippedBytes} gzipped (target < 40960: ${measurement.gzippedBytes < 40_960 ? 'met' : 'NOT met'}); ` +
    `script → usable form: median ${median.toFixed(0)} ms, p90 ${p90.toFixed(0)} ms, max ${max.toFixed(0)} ms over ${measurement.phase.requests} cold loads`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const measurement of await measureWidget()) console.log(describeWidget(measurement));
}
