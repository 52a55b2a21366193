import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Writable } from 'node:stream';
import { buildApp, type AppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/load-config.js';
import { randomIds, type Clock } from '../../src/domain/ids.js';
import { createEntity, type CreatedEntity } from '../../src/operations/admin/create-entity.js';
import type { Storage } from '../../src/storage/port.js';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private current = new Date('2026-11-22T10:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** Collects every log line the app writes. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export interface TestApp {
  readonly app: FastifyInstance;
  readonly storage: Storage;
  readonly clock: ManualClock;
  readonly logs: LogCapture;
  readonly config: Config;
  createMerchant(name?: string): Promise<CreatedEntity>;
  createChannel(merchantId: string, name?: string): Promise<CreatedEntity>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  readonly env?: Record<string, string>;
  readonly overrides?: Partial<AppOptions>;
  /** Routes a test adds before the app is sealed, e.g. a probe behind entity authentication. */
  readonly extraRoutes?: (app: FastifyInstance) => void;
}

export async function startTestApp(storage: Storage, options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig({ LOG_LEVEL: 'info', THROTTLE_MAX_REQUESTS: '100000', ...options.env });
  const clock = new ManualClock();
  const logs = new LogCapture();
  const deps = { storage, clock, ids: randomIds };
  const app = await buildApp({
    ...deps,
    config,
    buildNumber: `${'a'.repeat(40)}@2026-11-22 10:00:00 +0000`,
    adminToken: TEST_ADMIN_TOKEN,
    logStream: logs,
    ...options.overrides,
  });
  options.extraRoutes?.(app);
  await app.ready();
  return {
    app,
    storage,
    clock,
    logs,
    config,
    createMerchant: (name = 'Shop') => createEntity(deps, { name }),
    createChannel: (merchantId, name = 'Channel') => createEntity(deps, { name, merchantId }),
    close: () => app.close(),
  };
}

/** Form-encodes a body the way merchants' clients send it. */
export function form(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
  }
  return params.toString();
}

export const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' } as const;

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export function json(response: LightMyRequestResponse): Record<string, any> {
  return response.json() as Record<string, any>;
}

export const ENVELOPE_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}\+0000$/;

/** A route behind entity authentication that answers with the entity it was authorised for. */
export function probeRoutes(app: FastifyInstance): void {
  for (const method of ['GET', 'POST', 'DELETE'] as const) {
    app.route({
      method,
      url: '/v1/probe',
      config: { auth: 'entity' },
      handler: async (request) => ({ entityId: request.entityId, tokenEntity: request.principal?.entityId }),
    });
  }
}
