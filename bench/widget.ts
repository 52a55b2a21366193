/**
 * The widget's rows of `npm run bench` (and on its own: `npm run bench:widget`): what a shopper
 * downloads for a card payment, gzipped, in all (paymentWidgets.js, the card frame's frame.js and
 * the texts of the shopper's language, which the script fetches for any language but English:
 * target under 40 KB), and the time from the script's request to a usable form (onReady: the
 * forms drawn in the shopper's language and the gateway's card frames loaded and answering), in
 * headless Chromium, median of BENCH_WIDGET_LOADS (20) loads, each in a fresh browser context
 * (cold cache, as a shopper's first visit); a row per layout (OPPWA's forms, tabs, accordion: one
 * script, so one size), their loads taken in turn so that a busy moment of the machine falls on
 * all alike. The page asks for BENCH_WIDGET_LOCALE (de), so the language's request is timed too.
 * The gateway's real widget routes serve the script, the texts and the frames; the checkout's
 * bootstrap answer is stubbed (its server cost is the checkouts row's), so the rows measure the
 * browser side. Needs Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium), except
 * `--size`, which prints the download alone.
 */
import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { registerWidgetRoutes } from '../src/http/routes/widget.js';
import { loadWidgetAsset, loadWidgetScript } from '../src/http/widget/script-asset.js';
import { loadWidgetTexts, widgetTextsBody } from '../src/http/widget/texts-asset.js';
import type { PhaseResult } from './load.js';

const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const LOADS = Number(process.env['BENCH_WIDGET_LOADS'] ?? 20);
const CHECKOUT_ID = '8A82944A4CC25EBF014CC2C782423202.uat01-vm-tx04';
/** The shopper's language of the timed page and of the size row: one of the 24 the script fetches. */
const LOCALE = process.env['BENCH_WIDGET_LOCALE'] ?? 'de';
/** What a shopper may download for the widget in all, gzipped (issue 35: under 40 KB). */
export const WIDGET_DOWNLOAD_TARGET_BYTES = 40 * 1024;

/** Gzipped bytes (level 9, as a proxy or CDN would serve them) of each part a card payment downloads. */
export interface WidgetDownload {
  readonly locale: string;
  readonly scriptBytes: number;
  readonly frameBytes: number;
  readonly textsBytes: number;
  /** The largest of the 24 fetched languages' texts, and which. */
  readonly largestTexts: { readonly locale: string; readonly bytes: number };
  readonly totalBytes: number;
  /** The script unzipped, for the record. */
  readonly rawScriptBytes: number;
}

const gzipped = (bytes: Buffer | string) => gzipSync(bytes, { level: 9 }).length;

/** The download of a card payment in `locale`: no browser needed. */
export function widgetDownload(locale = LOCALE): WidgetDownload {
  const texts = loadWidgetTexts();
  const textsOf = (code: string) => {
    const body = widgetTextsBody(texts, code);
    if (body === undefined) throw new Error(`BENCH_WIDGET_LOCALE: ${code} is none of ${Object.keys(texts.texts).join(', ')}`);
    return gzipped(body);
  };
  // English is in the script: nothing to fetch.
  const textsBytes = locale === 'en' ? 0 : textsOf(locale);
  const largestTexts = Object.keys(texts.texts).filter((code) => code !== 'en').map((code) => ({ locale: code, bytes: textsOf(code) })).reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const script = loadWidgetScript().bytes;
  const scriptBytes = gzipped(script);
  const frameBytes = gzipped(loadWidgetAsset('frame').bytes);
  return { locale, scriptBytes, frameBytes, textsBytes, largestTexts, totalBytes: scriptBytes + frameBytes + textsBytes, rawScriptBytes: script.length };
}

export function describeDownload(download: WidgetDownload): string {
  const { scriptBytes, frameBytes, textsBytes, totalBytes, largestTexts, locale } = download;
  const met = totalBytes < WIDGET_DOWNLOAD_TARGET_BYTES ? 'met' : 'NOT met';
  return `download for a card payment in ${locale}, gzipped: ${totalBytes} bytes in all (target < ${WIDGET_DOWNLOAD_TARGET_BYTES}: ${met}) = ` +
    `paymentWidgets.js ${scriptBytes} (${download.rawScriptBytes} unzipped) + frame.js ${frameBytes} + texts ${textsBytes} (the largest language, ${largestTexts.locale}: ${largestTexts.bytes})`;
}

/** wpwlOptions.layout of each row; 'forms' is the default layout (no option). */
export const WIDGET_LAYOUTS = ['forms', 'tabs', 'accordion'] as const;
export type WidgetLayout = (typeof WIDGET_LAYOUTS)[number];

export interface WidgetMeasurement {
  readonly layout: WidgetLayout;
  readonly download: WidgetDownload;
  readonly loadToUsableMs: { readonly median: number; readonly p90: number; readonly max: number };
  readonly phase: PhaseResult;
}

function merchantPage(gatewayUrl: string, integrity: string, layout: WidgetLayout): string {
  const option = layout === 'forms' ? '' : `layout: '${layout}', `;
  return `<!doctype html><html><head><meta charset="utf-8"><title>bench</title>
<script>var wpwlOptions = { ${option}locale: '${LOCALE}', onReady: function () { window.__readyAt = performance.now(); } };</script>
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
  const download = widgetDownload();
  return layouts.map((layout) => measurementOf(layout, times.get(layout)!, download));
}

function measurementOf(layout: WidgetLayout, times: readonly number[], download: WidgetDownload): WidgetMeasurement {
  const sorted = [...times].sort((a, b) => a - b);
  const median = percentile(sorted, 0.5);
  const total = times.reduce((sum, time) => sum + time, 0);
  // The default layout's row keeps its old name, so the runs before the layouts compare with it.
  const what = layout === 'forms' ? 'widget' : `widget, layout ${layout}`;
  return {
    layout,
    download,
    loadToUsableMs: { median, p90: percentile(sorted, 0.9), max: sorted.at(-1)! },
    phase: {
      name: `${what}: script → usable form, Chromium (${(download.totalBytes / 1024).toFixed(1)} KB gzipped in all)`,
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
  return `${measurement.layout}: ${describeDownload(measurement.download)}; ` +
    `script → usable form: median ${median.toFixed(0)} ms, p90 ${p90.toFixed(0)} ms, max ${max.toFixed(0)} ms over ${measurement.phase.requests} cold loads`;
}

const USAGE = `npx tsx bench/widget.ts [--size | --help]
  (no option)  the download row, and a row per layout timed in Chromium (BENCH_WIDGET_LOADS cold loads, CHROMIUM_PATH)
  --size       the download alone: paymentWidgets.js + frame.js + the texts of BENCH_WIDGET_LOCALE (default de), gzipped, against the 40 KB target; no browser
  --help       this text`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  if (args.includes('--help')) console.log(USAGE);
  else if (args.includes('--size')) console.log(describeDownload(widgetDownload()));
  else for (const measurement of await measureWidget()) console.log(describeWidget(measurement));
}
