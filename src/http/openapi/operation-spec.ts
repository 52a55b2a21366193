import { resultCode } from '../../results/catalogue.js';

/**
 * An operation the parameter catalogue does not describe (health, 3-D Secure, risk, the widget's
 * and the redirect pages, the admin API), written as data: its example request and the answers it
 * gives. toOperation turns it into an OpenAPI operation; test/integration/openapi-coverage.test.ts
 * sends every example request to an app and checks the answer against the documented statuses.
 */

export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Who may call: a merchant's token (the document's default), the ADMIN_TOKEN, or anybody. */
export type Access = 'merchant' | 'admin' | 'public';

export type AnswerType = 'json' | 'html' | 'javascript' | 'css' | 'text' | 'none';

export interface Answer {
  readonly description: string;
  readonly type?: AnswerType;
  /** The example answer (JSON), or an excerpt of a page or script. */
  readonly example?: Json;
  /** JSON answers without the envelope (health, this document): their own schema. */
  readonly schema?: JsonObject;
}

export interface OperationSpec {
  readonly method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI form: /admin/webhooks/{webhookId}. */
  readonly path: string;
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  readonly access: Access;
  /** Example values of the path's parameters, by name. */
  readonly pathExample?: Readonly<Record<string, string>>;
  /** The example query string and form body; every field listed is documented. */
  readonly query?: Readonly<Record<string, string>>;
  readonly form?: Readonly<Record<string, string>>;
  /** The example JSON body, for the one route that takes JSON (the 3DS server's RReq): sent as application/json. */
  readonly json?: JsonObject;
  /** A component schema the form body follows (the payment parameters), instead of one made from the example. */
  readonly formSchema?: string;
  /** Fields of query or form a request may leave out (the others are required). */
  readonly optional?: readonly string[];
  /** What each field means, where its name does not say it. */
  readonly fields?: Readonly<Record<string, string>>;
  readonly answers: Readonly<Record<number, Answer>>;
}

/** The examples' entity, token and build: what an answer of a merchant's request shows. */
export const EXAMPLE_ENTITY_ID = '8a8294174b7ecb28014b9699220015ca';
export const EXAMPLE_BUILD_NUMBER = 'b4f3e2a1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5@2026-11-22 10:00:00 +0000';
export const EXAMPLE_TIMESTAMP = '2026-11-22 10:00:00+0000';
export const EXAMPLE_REQUEST_ID = '5b0c6f0e2d1a4c9b8e7f6a5d4c3b2a19';

/** An answer with the envelope every JSON answer carries; the description is the catalogue's. */
export function enveloped(code: string, fields: JsonObject = {}, entityId: string | undefined = EXAMPLE_ENTITY_ID): JsonObject {
  return {
    ...fields,
    result: { code, description: resultCode(code).description },
    buildNumber: EXAMPLE_BUILD_NUMBER,
    timestamp: EXAMPLE_TIMESTAMP,
    ndc: entityId ? `${entityId}-${EXAMPLE_REQUEST_ID}` : EXAMPLE_REQUEST_ID,
  };
}

/** An error answer: the request's own id, the code and, for a parameter at fault, which one. */
export function refused(code: string, parameter?: { name: string; value: string; message: string }, entityId?: string): JsonObject {
  const errors: JsonObject = parameter ? { parameterErrors: [parameter] } : {};
  const answer = enveloped(code, { id: EXAMPLE_REQUEST_ID }, entityId);
  return { ...answer, result: { ...(answer['result'] as JsonObject), ...errors } };
}

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

const MEDIA_TYPES: Readonly<Record<Exclude<AnswerType, 'none'>, string>> = {
  json: 'application/json',
  html: 'text/html',
  javascript: 'application/javascript',
  css: 'text/css',
  text: 'text/plain',
};

function answerObject(status: number, answer: Answer): JsonObject {
  const type = answer.type ?? 'json';
  if (type === 'none') return { description: answer.description };
  const schema = answer.schema ?? (type !== 'json' ? { type: 'string' } : status >= 400 ? ref('ErrorResponse') : ref('Envelope'));
  const media: JsonObject = { schema };
  if (answer.example !== undefined) media['example'] = answer.example;
  return { description: answer.description, content: { [MEDIA_TYPES[type]]: media } };
}

function fieldSchema(spec: OperationSpec, name: string, example: string): JsonObject {
  const description = spec.fields?.[name];
  return { type: 'string', ...(description ? { description } : {}), example };
}

function parameters(spec: OperationSpec): Json[] {
  const inPath = [...spec.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const pathParameters = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    ...(spec.fields?.[name] ? { description: spec.fields[name]! } : {}),
    schema: { type: 'string' },
    example: spec.pathExample?.[name] ?? '',
  }));
  const queryParameters = Object.entries(spec.query ?? {}).map(([name, example]) => ({
    name,
    in: 'query',
    required: !spec.optional?.includes(name),
    ...(spec.fields?.[name] ? { description: spec.fields[name]! } : {}),
    schema: { type: 'string' },
    example,
  }));
  return [...pathParameters, ...queryParameters];
}

function requestBody(spec: OperationSpec): JsonObject | undefined {
  if (spec.json) return { required: true, content: { 'application/json': { schema: { type: 'object' }, example: spec.json } } };
  if (!spec.form) return undefined;
  const names = Object.keys(spec.form);
  const schema: JsonObject = spec.formSchema ? ref(spec.formSchema) : {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, fieldSchema(spec, name, spec.form![name]!)])),
    required: names.filter((name) => !spec.optional?.includes(name)),
  };
  return { required: true, content: { 'application/x-www-form-urlencoded': { schema, example: spec.form } } };
}

const SECURITY: Readonly<Record<Access, Json[] | undefined>> = { merchant: undefined, admin: [{ adminToken: [] }], public: [] };

export function toOperation(spec: OperationSpec): JsonObject {
  const operation: JsonObject = { operationId: spec.operationId, tags: [spec.tag], summary: spec.summary };
  if (spec.description) operation['description'] = spec.description;
  const listed = parameters(spec);
  if (listed.length > 0) operation['parameters'] = listed;
  const body = requestBody(spec);
  if (body) operation['requestBody'] = body;
  operation['responses'] = Object.fromEntries(Object.entries(spec.answers).map(([status, answer]) => [status, answerObject(Number(status), answer)]));
  const security = SECURITY[spec.access];
  if (security) operation['security'] = security;
  return operation;
}
