import { buildOpenApiDocument } from '../../catalogue/index.js';
import { ADMIN_OPERATIONS } from './admin-operations.js';
import { CATALOGUE_EXAMPLES, type CatalogueExample } from './catalogue-examples.js';
import { toOperation, type Json, type JsonObject, type OperationSpec } from './operation-spec.js';
import { PUBLIC_OPERATIONS } from './public-operations.js';

/**
 * The whole API reference (/openapi.json, docs/openapi.json, /docs): the operations the parameter
 * catalogue describes (src/catalogue/render/openapi.ts) with their examples, and the operations
 * written as data beside them (public-operations.ts, admin-operations.ts).
 */

type Operation = JsonObject & { parameters?: JsonObject[]; requestBody?: JsonObject; responses: Record<string, JsonObject> };
type PathItem = Record<string, Operation>;

export interface ApiDocument extends JsonObject {
  info: { title: string; version: string; description: string };
  paths: { [path: string]: PathItem };
}

const TAGS: readonly { name: string; description: string; prefix?: string }[] = [
  { name: 'Payments', prefix: '/v1/payments', description: 'Payments, captures, reversals, refunds and their status' },
  { name: 'Registrations', prefix: '/v1/registrations', description: 'Stored payment data and payments with it' },
  { name: 'Checkouts', prefix: '/v1/checkouts', description: 'Checkouts for the payment widget (docs/widget.md)' },
  { name: 'Payment widget', description: "The widget's scripts and frame, fetched by the shopper's browser" },
  { name: '3-D Secure', description: 'Card authentication without a payment' },
  { name: 'Risk', description: 'Risk checks without a payment' },
  { name: 'Query', prefix: '/v1/query', description: 'Transactions by id, merchantTransactionId or time frame' },
  { name: 'Schedules', prefix: '/scheduling/', description: 'Recurring payments of a registration' },
  { name: 'Reports', prefix: '/reports/', description: 'Settlement reports' },
  { name: 'Shopper pages', description: "Pages the shopper's browser is redirected to: returns, and the test system's simulated provider and ACS" },
  { name: 'Reference', prefix: '/v1/resultcodes', description: 'Result codes and this reference' },
  { name: 'Health and metrics', description: 'Probes for load balancers and orchestrators, and the Prometheus scrape' },
  { name: 'Admin', description: "The operator's API, behind ADMIN_TOKEN (on its own listener with ADMIN_PORT)" },
];

/** Answers any operation may give, listed once here rather than on each (docs/api.md, "HTTP statuses"). */
const GENERAL_ANSWERS =
  'Besides the statuses each operation lists, any request may be answered 405 (another method; Allow names it), 408, 409 (Idempotency-Key reused or still running), 413, 414, 415, 429 (throttled; Retry-After), 431, 500, 503 (database unreachable) or 504 (no answer within HANDLER_TIMEOUT_MS): docs/api.md, "HTTP statuses". Every JSON answer carries result, buildNumber, timestamp and ndc.';

const tagOf = (path: string) => TAGS.find((tag) => tag.prefix && path.startsWith(tag.prefix))?.name ?? 'Payments';

function withExampleValues(parameters: JsonObject[] | undefined, example: CatalogueExample): JsonObject[] | undefined {
  const values: Record<string, string | undefined> = { ...example.query, ...example.path };
  return parameters?.map((parameter) => {
    const value = values[String(parameter['name'])];
    return value === undefined ? parameter : { ...parameter, example: value };
  });
}

function withExampleAnswers(responses: Record<string, JsonObject>, example: CatalogueExample): Record<string, JsonObject> {
  const merged = { ...responses };
  for (const [status, answer] of Object.entries(example.answers)) {
    const documented = merged[status] ?? { description: answer.description ?? '', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } };
    const content = documented['content'] as Record<string, JsonObject> | undefined;
    const json = content?.['application/json'];
    merged[status] = {
      ...documented,
      ...(answer.description ? { description: answer.description } : {}),
      ...(json && answer.example !== undefined ? { content: { ...content, 'application/json': { ...json, example: answer.example } } } : {}),
    };
  }
  return merged;
}

/** A catalogue operation with its tag and examples; one without an example is a mistake, caught here. */
function withExamples(path: string, operation: Operation): Operation {
  const id = String(operation['operationId']);
  const example = CATALOGUE_EXAMPLES[id];
  if (!example) throw new Error(`no example for the catalogue operation ${id} (src/http/openapi/catalogue-examples.ts)`);
  const enriched: Operation = { ...operation, tags: [tagOf(path)], responses: withExampleAnswers(operation.responses, example) };
  const parameters = withExampleValues(operation.parameters, example);
  if (parameters) enriched.parameters = parameters;
  if (operation.requestBody && example.form) {
    const content = operation.requestBody['content'] as Record<string, JsonObject>;
    const form = content['application/x-www-form-urlencoded']!;
    enriched.requestBody = { ...operation.requestBody, content: { 'application/x-www-form-urlencoded': { ...form, example: example.form } } };
  }
  return enriched;
}

const FORM = 'application/x-www-form-urlencoded';

function credentialLine(operation: Operation): string[] {
  const security = operation['security'] as JsonObject[] | undefined;
  if (security && security.length === 0) return [];
  return [security?.some((scheme) => 'adminToken' in scheme) ? 'Authorization: Bearer <ADMIN_TOKEN>' : 'Authorization: Bearer <access token>'];
}

/**
 * The example request as an HTTP message in the description: renderers show a form body's fields
 * but not its example, and a reader wants the request whole. Made from the same example values
 * the operation carries (and the coverage test sends).
 */
function exampleMessage(path: string, method: string, operation: Operation): string {
  let url = path;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters ?? []) {
    const example = parameter['example'];
    if (example === undefined) continue;
    if (parameter['in'] === 'path') url = url.replace(`{${String(parameter['name'])}}`, encodeURIComponent(String(example)));
    else if (parameter['in'] === 'query') query.set(String(parameter['name']), String(example));
  }
  const content = operation.requestBody?.['content'] as Record<string, JsonObject> | undefined;
  const form = content?.[FORM]?.['example'] as Record<string, string> | undefined;
  const head = [`${method.toUpperCase()} ${url}${query.size > 0 ? `?${query}` : ''} HTTP/1.1`, ...credentialLine(operation), ...(form ? [`Content-Type: ${FORM}`] : [])];
  const message = form ? [...head, '', new URLSearchParams(form).toString()] : head;
  return ['**Example request**', '', '```http', ...message, '```'].join('\n');
}

function withExampleMessage(path: string, method: string, operation: Operation): Operation {
  const description = [operation['description'], exampleMessage(path, method, operation)].filter(Boolean).join('\n\n');
  return { ...operation, description };
}

function addSpecs(paths: ApiDocument['paths'], specs: readonly OperationSpec[]): void {
  for (const spec of specs) {
    const item = (paths[spec.path] ??= {});
    if (item[spec.method]) throw new Error(`${spec.method.toUpperCase()} ${spec.path} is documented twice`);
    item[spec.method] = toOperation(spec) as Operation;
  }
}

/** POST /v1/threeDSecure and /v1/risk take the payment parameters, paymentType optional (PA). */
function paymentCheckRequest(schemas: JsonObject): JsonObject {
  const payment = schemas['PaymentRequest'] as JsonObject & { required: string[] };
  return { ...payment, required: payment.required.filter((name) => name !== 'paymentType') };
}

export function buildApiDocument(): ApiDocument {
  const catalogue = buildOpenApiDocument() as unknown as ApiDocument & { components: { securitySchemes: JsonObject; schemas: JsonObject } };
  const paths: ApiDocument['paths'] = {};
  for (const [path, item] of Object.entries(catalogue.paths)) {
    paths[path] = Object.fromEntries(Object.entries(item).map(([method, operation]) => [method, withExamples(path, operation)]));
  }
  addSpecs(paths, PUBLIC_OPERATIONS);
  addSpecs(paths, ADMIN_OPERATIONS);
  const sorted = Object.fromEntries(
    Object.entries(paths)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([path, item]) => [path, Object.fromEntries(Object.entries(item).map(([method, operation]) => [method, withExampleMessage(path, method, operation)]))]),
  );
  return {
    ...catalogue,
    info: {
      ...catalogue.info,
      description: `${catalogue.info.description} ${GENERAL_ANSWERS}`,
      license: { name: 'MIT', identifier: 'MIT' },
    } as ApiDocument['info'],
    servers: [{ url: '/', description: 'This gateway' }] as Json,
    tags: TAGS.map(({ name, description }) => ({ name, description })),
    paths: sorted,
    components: {
      ...catalogue.components,
      schemas: { ...catalogue.components.schemas, PaymentCheckRequest: paymentCheckRequest(catalogue.components.schemas) },
      securitySchemes: {
        ...catalogue.components.securitySchemes,
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN, for /admin (and /metrics on the public listener)' },
      },
    },
  };
}
