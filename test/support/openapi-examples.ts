import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { EXAMPLE_ENTITY_ID } from '../../src/http/openapi/operation-spec.js';

/**
 * What the route-coverage test needs from the OpenAPI document and the apps: every operation with
 * its example request, turned into an inject() call, and every route an app registers.
 */

export interface DocumentedOperation {
  readonly method: string;
  readonly path: string;
  readonly operation: Record<string, any>;
}

export type OpenApiDocument = { paths: Record<string, Record<string, Record<string, any>>>; security?: unknown[] };

export function documentedOperations(document: OpenApiDocument): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })));
}

export interface Caller {
  readonly entityId: string;
  readonly merchantToken: string;
  readonly adminToken: string;
}

const FORM = 'application/x-www-form-urlencoded';
const real = (value: unknown, caller: Caller) => (value === EXAMPLE_ENTITY_ID ? caller.entityId : String(value));

function credentialsOf(operation: Record<string, any>, caller: Caller): Record<string, string> {
  const security = operation['security'] as Record<string, unknown>[] | undefined;
  if (security && security.length === 0) return {};
  if (security?.some((scheme) => 'adminToken' in scheme)) return { authorization: `Bearer ${caller.adminToken}` };
  return { authorization: `Bearer ${caller.merchantToken}` };
}

/** The operation's example request, as inject() takes it; the examples' entity becomes the caller's. */
export function exampleRequest({ method, path, operation }: DocumentedOperation, caller: Caller) {
  const parameters = (operation['parameters'] ?? []) as Record<string, any>[];
  let url = path;
  const query = new URLSearchParams();
  for (const parameter of parameters) {
    if (parameter['in'] === 'path') url = url.replace(`{${parameter['name']}}`, encodeURIComponent(real(parameter['example'], caller)));
    else if (parameter['in'] === 'query' && parameter['example'] !== undefined) query.set(parameter['name'], real(parameter['example'], caller));
  }
  const form = operation['requestBody']?.['content']?.[FORM]?.['example'] as Record<string, string> | undefined;
  const json = operation['requestBody']?.['content']?.['application/json']?.['example'] as Record<string, unknown> | undefined;
  const body = form ? new URLSearchParams(Object.entries(form).map(([name, value]) => [name, real(value, caller)])).toString() : json ? JSON.stringify(json) : undefined;
  return {
    method: method as 'GET',
    url: `${url}${query.size > 0 ? `?${query}` : ''}`,
    headers: { ...credentialsOf(operation, caller), ...(body !== undefined ? { 'content-type': form ? FORM : 'application/json' } : {}) },
    ...(body !== undefined ? { payload: body } : {}),
  };
}

export function documentedStatuses(operation: Record<string, any>): number[] {
  return Object.keys(operation['responses'] ?? {}).map(Number);
}

/** The documented example answer of a status, if it has one (JSON or text). */
export function exampleAnswer(operation: Record<string, any>, status: number): unknown {
  const content = operation['responses']?.[String(status)]?.['content'] as Record<string, { example?: unknown }> | undefined;
  return content ? Object.values(content)[0]?.example : undefined;
}

export function answerSummary(response: LightMyRequestResponse): string {
  return `${response.statusCode} ${response.body.slice(0, 300)}`;
}

/**
 * Every method and path the app registers, from printRoutes' tree (Fastify's public way to list
 * them): each line is a segment appended to its parent's path, with its methods in parentheses.
 * HEAD routes Fastify adds for each GET are left out.
 */
export function registeredRoutes(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const path = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes;
}
