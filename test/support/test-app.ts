import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { after, before } from 'node:test';
import { Writable } from 'node:stream';
import { buildApp, type AppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/load-config.js';
import { randomIds, type Clock } from '../../src/domain/ids.js';
import type { Vault } from '../../src/domain/vault/index.js';
import { createEntity, type CreatedEntity } from '../../src/operations/admin/create-entity.js';
import { createEphemeralVault } from '../../src/operations/registrations/open-vault.js';
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
  /** The card vault the payment operations use. */
  readonly vault: Vault;
  createMerchant(name?: string): Promise<CreatedEntity>;
  createChannel(merchantId: string, name?: string): Promise<CreatedEntity>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  readonly env?: Record<string, string>;
  readonly overrides?: Partial<AppOptions>;
  /** Routes a test adds before the app is sealed, e.g. a probe behind entity authentication. */
  readonly extraRoutes?: (app: FastifyInstance) => void;
  /** The card vault; a vault with a random master key when absent. */
  readonly vault?: Vault;
}

/**
 * Puts the vault on the payment deps unless the app already has one and the test asked for none
 * (app.ts may wire its own; a test that brings a vault, e.g. to rotate its keys, wins).
 */
function installVault(app: FastifyInstance, wanted: Vault | undefined, fallback: () => Vault): Vault {
  const payments = app.gateway.payments as { vault?: Vault };
  if (wanted || !payments.vault) Object.assign(payments, { vault: wanted ?? fallback() });
  return payments.vault!;
}

export async function startTestApp(storage: Storage, options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig({ LOG_LEVEL: 'info', THROTTLE_MAX_REQUESTS: '100000', AUTH_FAILURE_MAX_PER_WINDOW: '100000', ...options.env });
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
  const vault = installVault(app, options.vault, () => createEphemeralVault(deps));
  options.extraRoutes?.(app);
  await app.ready();
  return {
    app,
    storage,
    clock,
    logs,
    config,
    vault,
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

/** The specification's `yyyy-MM-dd hh:mm:ssZ` (docs/compatibility.md, "Envelope forms"). */
export const ENVELOPE_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/;
/** The specification's ndc: `a-z A-Z 0-9 -`, at most 69 characters. */
export const ENVELOPE_NDC = /^[a-zA-Z0-9-]{1,69}$/;

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

/**
 * The usual frame of an integration suite: a fresh database and app with one merchant before the
 * tests, everything closed after. `ready` hands them to the suite's own variables.
 */
export function withAppAndMerchant(
  open: () => Promise<Storage>,
  options: TestAppOptions,
  ready: (t: TestApp, merchant: CreatedEntity) => void,
): void {
  let app: TestApp | undefined;
  before(async () => {
    app = await startTestApp(await open(), options);
    ready(app, await app.createMerchant());
  });
  after(async () => {
    await app?.close();
    await app?.storage.close();
  });
}
