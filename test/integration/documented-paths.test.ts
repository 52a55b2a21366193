/**
 * Every path the documentation names answers: each path (and method) of /openapi.json and each
 * endpoint path written in README.md and docs/*.md is sent to the app, ids filled in and
 * authenticated, and none may get "no such endpoint" (404 with 200.300.404 on `path`) or, when
 * the documentation names a method, 405. A 404 for a resource that is not there (700.400.580
 * for a random payment id) is an answer. Endpoints still to come stay out of the documentation
 * until their route exists (src/catalogue/render/endpoints.ts: `served`).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'] as const;

interface Mention {
  readonly where: string;
  readonly method: string | undefined;
  readonly path: string;
}

/** `GET /v1/query?entityId=…`, `POST /admin/webhooks`, or a bare `/health`, in prose or code. */
const MENTION = /(?:\b(GET|POST|DELETE|PUT|PATCH)\s+`?)?(?<![\w./-])(\/(?:v1|admin|scheduling|reports|health|docs|openapi\.json|checkouts|paymentWidgets\.js)(?:[\w.{}\-/%:]|…)*)/g;

export function mentionsIn(where: string, text: string): Mention[] {
  const found: Mention[] = [];
  // http://127.0.0.1:8080/v1/… in examples: the path is what counts.
  for (const match of text.replace(/https?:\/\/[^/\s`"']+/g, ' ').matchAll(MENTION)) {
    const path = match[2]!.replace(/[.:,]+$/, '');
    found.push({ where, method: match[1], path });
  }
  return found;
}

function documentedMentions(): Mention[] {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  return files.flatMap((file) => mentionsIn(file, readFileSync(join(ROOT, file), 'utf8')));
}

const noSuchEndpoint = (status: number, body: string) => {
  if (status !== 404) return false;
  // An HTML answer (a simulated page's "no such link") comes from a route that exists.
  if (!body.startsWith('{')) return false;
  const result = (JSON.parse(body) as { result?: { code?: string; parameterErrors?: { name: string }[] } }).result;
  return result?.code === '200.300.404' && result.parameterErrors?.[0]?.name === 'path';
};

describe('every documented path answers', () => {
  for (const database of testDatabases()) {
    describe(database.name, () => {
      let t: TestApp;
      let merchant: { entityId: string; accessToken: string };
      before(async () => {
        t = await startTestApp(await database.open());
        merchant = await t.createMerchant();
      });
      after(async () => {
        await t.close();
        await t.storage.close();
      });

      /** What the app answers to method on path, with ids filled in and the right credentials. */
      async function send(method: string, documentedPath: string): Promise<{ status: number; body: string }> {
        const path = documentedPath.replace(/\{[^}]*\}/g, '0'.repeat(32)).replace(/…/g, '');
        const url = new URL(path, 'http://gateway.test');
        if (path.startsWith('/v1/') && !url.searchParams.get('entityId') && method !== 'POST') url.searchParams.set('entityId', merchant.entityId);
        const token = path.startsWith('/admin') ? TEST_ADMIN_TOKEN : merchant.accessToken;
        const response = await t.app.inject({
          method: method as 'GET',
          url: `${url.pathname}${url.search}`,
          headers: { authorization: `Bearer ${token}`, ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
          ...(method === 'POST' ? { payload: new URLSearchParams({ entityId: merchant.entityId }).toString() } : {}),
        });
        return { status: response.statusCode, body: response.body };
      }

      it('every path and method of /openapi.json', async () => {
        const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
        const missing: string[] = [];
        for (const [path, operations] of Object.entries(document.paths)) {
          for (const method of Object.keys(operations).map((m) => m.toUpperCase())) {
            const { status, body } = await send(method, path);
            if (noSuchEndpoint(status, body) || status === 405) missing.push(`${method} ${path}: ${status} ${body.slice(0, 200)}`);
          }
        }
        assert.ok(Object.keys(document.paths).length >= 5);
        assert.deepEqual(missing, []);
      });

      it('every endpoint path named in README.md and docs/*.md', async () => {
        const mentions = documentedMentions();
        assert.ok(mentions.length > 30, `found ${mentions.length} mentions`);
        const concrete = mentions.map((m) => m.path);
        const missing: string[] = [];
        for (const mention of mentions) {
          // `/admin/…`, `through /admin`: a family of endpoints, named by the prefix they share.
          const prefix = mention.path.endsWith('…') || mention.path.endsWith('/') || mention.path.split('/').length === 2;
          if (mention.method === undefined && prefix && concrete.some((p) => p.startsWith(mention.path.replace(/…$/, '').replace(/\/?$/, '/')))) continue;
          const tries = mention.method ? [mention.method] : [...METHODS];
          const answers = await Promise.all(tries.map((method) => send(method, mention.path)));
          const answered = answers.some(({ status, body }) => !noSuchEndpoint(status, body) && !(mention.method && status === 405));
          if (!answered) missing.push(`${mention.where}: ${mention.method ?? ''} ${mention.path}: ${answers[0]!.status} ${answers[0]!.body.slice(0, 160)}`);
        }
        assert.deepEqual(missing, []);
      });
    });
  }
});
