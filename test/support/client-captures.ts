import { legacyCredentialOf } from '../../src/domain/access-token-form.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/**
 * The traffic of four real OPPWA client libraries (../shared/reference/client-captures/*.jsonl),
 * replayed through inject() with a test's own entity and credentials substituted. Used by the
 * replay test and, run directly (`npx tsx test/support/client-captures.ts`), to list the answers
 * every captured request gets today.
 */

export const CAPTURES_DIR = process.env['CLIENT_CAPTURES_DIR'] ?? '/work/shared/reference/client-captures';

export interface CapturedRequest {
  /** `<library>#<line>`, 1-based: the key of the expectations in test/support/client-expectations.ts. */
  readonly key: string;
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export function readCaptures(dir = CAPTURES_DIR): CapturedRequest[] {
  const captures: CapturedRequest[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.requests.jsonl')).sort()) {
    const library = file.replace('.requests.jsonl', '');
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (line.trim() === '') return;
        captures.push({ key: `${library}#${index + 1}`, ...(JSON.parse(line) as Omit<CapturedRequest, 'key'>) });
      });
  }
  return captures;
}

/** Ids are bound within one library's flow, never across libraries. */
export function libraryOf(capture: CapturedRequest): string {
  return capture.key.split('#')[0]!;
}

/** Whether the capture authenticated with the legacy authentication.* fields (no header). */
export function usesLegacyAuth(capture: CapturedRequest): boolean {
  return capture.headers['authorization'] === undefined && (capture.body.includes('authentication.userId') || 'authentication.userId' in capture.query);
}

export interface Credentials {
  readonly entityId: string;
  readonly accessToken: string;
  /** The userId of the legacy fields (the token's first part). */
  readonly userId?: string;
  readonly password?: string;
}

/**
 * The ids a capture names (P1, PAYID, a 32-hex id from the library's sandbox) mapped to ids this
 * replay created; a path whose id is unmapped is sent as captured.
 */
export type IdMap = Map<string, string>;

const PATH_ID = /^\/v1\/(payments|registrations|checkouts)\/([^/]+)(.*)$/;

function substitutePath(path: string, ids: IdMap): string {
  const match = PATH_ID.exec(path);
  if (!match) return path;
  const mapped = ids.get(match[2]!);
  return mapped ? `/v1/${match[1]}/${mapped}${match[3]}` : path;
}

/** The form fields with the test's entity and (legacy) credentials in place of the captured ones. */
function substituteFields(params: URLSearchParams, credentials: Credentials): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of params) {
    if (name === 'entityId' || name === 'authentication.entityId') out.append(name, credentials.entityId);
    else if (name === 'authentication.userId') out.append(name, credentials.userId ?? value);
    else if (name === 'authentication.password') out.append(name, credentials.password ?? value);
    else out.append(name, value);
  }
  return out;
}

export interface PreparedRequest {
  readonly method: CapturedRequest['method'];
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string;
}

/**
 * The captured request with the test's credentials: a Bearer header where the capture had one (or,
 * with `bearerForLegacy`, in place of legacy fields, which are then dropped), the legacy fields
 * otherwise; GET and DELETE without an entityId get the test's.
 */
export function prepare(capture: CapturedRequest, credentials: Credentials, ids: IdMap, bearerForLegacy = false): PreparedRequest {
  const legacy = usesLegacyAuth(capture);
  const headers: Record<string, string> = {};
  if (capture.headers['content-type'] && capture.method === 'POST') headers['content-type'] = capture.headers['content-type'];
  if (capture.headers['authorization'] || (legacy && bearerForLegacy)) headers['authorization'] = `Bearer ${credentials.accessToken}`;
  const strip = (params: URLSearchParams) => {
    if (!(legacy && bearerForLegacy)) return params;
    for (const name of ['authentication.userId', 'authentication.password', 'authentication.entityId']) params.delete(name);
    if (!params.has('entityId')) params.set('entityId', credentials.entityId);
    return params;
  };
  const query = strip(substituteFields(new URLSearchParams(capture.query), credentials));
  const path = substitutePath(capture.path, ids);
  if (capture.method === 'POST') {
    const body = strip(substituteFields(new URLSearchParams(capture.body), credentials));
    if (!body.has('entityId') && !body.has('authentication.entityId')) body.set('entityId', credentials.entityId);
    if (!headers['content-type']) headers['content-type'] = 'application/x-www-form-urlencoded';
    const search = query.toString();
    return { method: capture.method, url: search ? `${path}?${search}` : path, headers, payload: body.toString() };
  }
  if (!query.has('entityId') && !query.has('authentication.entityId')) query.set('entityId', credentials.entityId);
  return { method: capture.method, url: `${path}?${query.toString()}`, headers };
}

/**
 * Remembers the ids an answer created so later captured requests can name them: the library's own
 * id for the resource (the one in its next path) maps to ours. A capture's placeholder (P1, R1,
 * PAYID, a sandbox id) is bound to the newest payment or registration created before it.
 */
export class ReplayIds {
  readonly map: IdMap = new Map();
  private lastPayment: string | undefined;
  private lastRegistration: string | undefined;

  /** Binds the capture's path id (if any, and not yet bound) to the newest resource of its kind. */
  bind(capture: CapturedRequest): void {
    const match = PATH_ID.exec(capture.path);
    if (!match || this.map.has(match[2]!)) return;
    const newest = match[1] === 'registrations' ? this.lastRegistration : match[1] === 'payments' ? this.lastPayment : undefined;
    if (newest) this.map.set(match[2]!, newest);
  }

  record(capture: CapturedRequest, response: LightMyRequestResponse): void {
    if (capture.method !== 'POST') return;
    const body = parseJson(response);
    const id = typeof body?.['id'] === 'string' ? (body['id'] as string) : undefined;
    const created = response.statusCode < 300 ? id : undefined;
    // A refused create leaves nothing to name: the library's next id then names nothing here either.
    if (capture.path === '/v1/registrations') this.lastRegistration = created;
    else if (capture.path === '/v1/payments' || capture.path.endsWith('/payments')) this.lastPayment = created;
    if (typeof body?.['registrationId'] === 'string') this.lastRegistration = body['registrationId'] as string;
  }
}

export function parseJson(response: LightMyRequestResponse): Record<string, unknown> | undefined {
  try {
    return response.json() as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export interface ReplayAnswer {
  readonly capture: CapturedRequest;
  readonly status: number;
  readonly code: string | undefined;
  readonly body: Record<string, unknown> | undefined;
}

/** Sends one capture and records the ids its answer created. */
export async function replayOne(app: FastifyInstance, capture: CapturedRequest, credentials: Credentials, ids: ReplayIds, bearerForLegacy = false): Promise<ReplayAnswer> {
  ids.bind(capture);
  // The test's token is of OPPWA's form, base64(userId|password): its fields stand in for the capture's.
  const legacy = credentials.userId === undefined ? legacyCredentialOf(credentials.accessToken) : undefined;
  const prepared = prepare(capture, { ...credentials, ...legacy }, ids.map, bearerForLegacy);
  const response = await app.inject(prepared);
  ids.record(capture, response);
  const body = parseJson(response);
  const result = body?.['result'] as { code?: string } | undefined;
  return { capture, status: response.statusCode, code: result?.code, body };
}

/** Run directly: every capture against a fresh PGlite app, legacy fields replaced by Bearer. */
async function listAnswers(): Promise<void> {
  const { createPgliteStorage } = await import('../../src/storage/pglite-storage.js');
  const { migrate } = await import('../../src/storage/migrate.js');
  const { startTestApp } = await import('./test-app.js');
  const storage = await createPgliteStorage(undefined);
  await migrate(storage);
  const test = await startTestApp(storage);
  const merchant = await test.createMerchant();
  let ids = new ReplayIds();
  let library = '';
  for (const capture of readCaptures()) {
    if (libraryOf(capture) !== library) [library, ids] = [libraryOf(capture), new ReplayIds()];
    const answer = await replayOne(test.app, capture, merchant, ids, true);
    const errors = (answer.body?.['result'] as { parameterErrors?: { name: string; message: string }[] } | undefined)?.parameterErrors ?? [];
    const brand = new URLSearchParams(capture.body).get('paymentBrand') ?? '';
    console.log([capture.key, capture.method, capture.path, brand, answer.status, answer.code, errors.map((e) => `${e.name}: ${e.message}`).join('; ')].join('\t'));
  }
  await test.close();
  await storage.close();
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) await listAnswers();
