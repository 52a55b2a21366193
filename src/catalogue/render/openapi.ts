import { CATALOGUE, endpointCatalogue } from '../catalogue.js';
import { hasIndex, hasMapKey } from '../names.js';
import type { Endpoint, ParameterRow } from '../types.js';
import { DOCUMENTED_ENDPOINTS, ENDPOINT_ROUTES, isDocumented } from './endpoints.js';

/**
 * docs/openapi.json (OpenAPI 3.1): request schemas generated from the catalogue rows, so the
 * published contract and the validation engine read the same data.
 */

type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };
type JsonObject = { [key: string]: Json };

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonObject): JsonObject => ({ 'application/json': { schema } });

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const requestSchemaName = (endpoint: Endpoint) => `${pascal(endpoint)}Request`;

function valueSchema(row: ParameterRow): JsonObject {
  const format = row.format;
  const schema: JsonObject = {
    type: 'string',
    description: [format.notation, row.description].filter(Boolean).join('. '),
    pattern: format.pattern,
    minLength: format.minLength,
    maxLength: format.maxLength,
    'x-result-code': row.code,
  };
  if (format.enumValues) schema['enum'] = [...format.enumValues];
  if (row.secret) schema['writeOnly'] = true;
  return schema;
}

const unanchored = (pattern: string) => pattern.replace(/^\^/, '').replace(/\$$/, '');

/** `cart.items[n].name` → ^cart\.items\[(0|[1-9][0-9]*)\]\.name$ */
function namePattern(row: ParameterRow): string {
  const escaped = row.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const key = row.keyFormat ? unanchored(row.keyFormat.pattern) : '[^\\]]+';
  return `^${escaped.replace(/\\\[n\\\]/g, '\\[(0|[1-9][0-9]*)\\]').replace(/\\\[(name|key|brand)\\\]/, `\\[${key}\\]`)}$`;
}

/**
 * Each row's value schema is a component of its own (`cart.items.n.name`), referenced by every
 * endpoint that accepts it; rows sharing a name (paymentType per endpoint) get a numbered suffix.
 */
const PARAMETER_COMPONENTS: ReadonlyMap<ParameterRow, string> = (() => {
  const names = new Map<ParameterRow, string>();
  const seen = new Map<string, number>();
  for (const row of CATALOGUE) {
    const base = `param.${row.name.replace(/\[/g, '.').replace(/\]/g, '')}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    names.set(row, count === 1 ? base : `${base}.${count}`);
  }
  return names;
})();

const rowRef = (row: ParameterRow) => ref(PARAMETER_COMPONENTS.get(row)!);

function requestSchema(endpoint: Endpoint): JsonObject {
  const properties: JsonObject = {};
  const patternProperties: JsonObject = {};
  const required: string[] = [];
  for (const { row } of endpointCatalogue(endpoint).rows) {
    if (hasIndex(row.name) || hasMapKey(row.name)) patternProperties[namePattern(row)] = rowRef(row);
    else properties[row.name] = rowRef(row);
    if (row.use[endpoint] === 'R') required.push(row.name);
  }
  return { type: 'object', properties, patternProperties, required, additionalProperties: false };
}

function queryParameters(endpoint: Endpoint): Json[] {
  return endpointCatalogue(endpoint).rows.map(({ row }) => ({
    name: row.name,
    in: 'query',
    required: row.use[endpoint] === 'R',
    schema: rowRef(row),
  }));
}

const ENTITY_ID_QUERY: JsonObject = {
  name: 'entityId',
  in: 'query',
  required: true,
  schema: { type: 'string', pattern: '^[a-f0-9]{32}$' },
};

const idPath = (description: string): JsonObject => ({ name: 'id', in: 'path', required: true, description, schema: { type: 'string' } });

const STANDARD_RESPONSES: JsonObject = {
  '400': { description: 'Invalid parameters or a declined payment', content: json(ref('ErrorResponse')) },
  '401': { description: 'Invalid authorization header', content: json(ref('ErrorResponse')) },
  '403': { description: 'Invalid access token', content: json(ref('ErrorResponse')) },
};

function operation(endpoint: Endpoint, okSchema: string): JsonObject {
  const route = ENDPOINT_ROUTES[endpoint];
  const op: JsonObject = {
    operationId: endpoint,
    summary: route.summary,
    responses: { '200': { description: 'Success or pending', content: json(ref(okSchema)) }, ...STANDARD_RESPONSES },
  };
  const pathParameters = route.path.includes('{id}') ? [idPath('Id of the referenced resource')] : [];
  if (route.method === 'get') op['parameters'] = [...pathParameters, ...queryParameters(endpoint)];
  else {
    op['parameters'] = pathParameters;
    op['requestBody'] = { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref(requestSchemaName(endpoint)) } } };
  }
  // The widget posts from the shopper's browser: the checkout id in the path is its credential.
  if (endpoint === 'checkoutPayment') op['security'] = [];
  return op;
}

function readOperation(operationId: string, summary: string, okSchema: string): JsonObject {
  return {
    operationId,
    summary,
    parameters: [idPath('Id of the resource'), ENTITY_ID_QUERY],
    responses: { '200': { description: 'Found', content: json(ref(okSchema)) }, '404': { description: 'No such resource', content: json(ref('ErrorResponse')) }, ...STANDARD_RESPONSES },
  };
}

/** A schedule operation beside SD: its form body has the entity and the fields listed. */
function scheduleChange(operationId: string, summary: string, fields: Readonly<Record<string, string>>, bodySchema?: JsonObject): JsonObject {
  const properties = Object.fromEntries([['entityId', 'The schedule\'s entity'], ...Object.entries(fields)].map(([name, description]) => [name, { type: 'string', description }]));
  const schema = bodySchema ?? { type: 'object', required: ['entityId', ...Object.keys(fields)], properties };
  return {
    operationId,
    summary,
    parameters: [idPath('Id of the schedule')],
    requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema } } },
    responses: { '200': { description: 'Done', content: json(ref('PaymentResponse')) }, '404': { description: 'No such schedule', content: json(ref('ErrorResponse')) }, ...STANDARD_RESPONSES },
  };
}

function schedulePaths(): JsonObject {
  return {
    '/scheduling/v1/schedules': {
      post: operation('schedule', 'PaymentResponse'),
      get: {
        operationId: 'listSchedules',
        summary: 'The schedules of a registration, with their runs',
        parameters: [ENTITY_ID_QUERY, { name: 'registrationId', in: 'query', required: true, schema: { type: 'string', pattern: '^[a-zA-Z0-9]{32}$' } }],
        responses: { '200': { description: 'Found', content: json(ref('PaymentResponse')) }, '404': { description: 'No such registration', content: json(ref('ErrorResponse')) }, ...STANDARD_RESPONSES },
      },
    },
    '/scheduling/v1/schedules/{id}': { get: readOperation('getSchedule', 'A schedule, its state and its runs with their payment ids', 'PaymentResponse') },
    '/scheduling/v1/schedules/{id}/reschedule': {
      // The parameters of SD, all but entityId optional: what is not sent stays as the old plan had it.
      post: scheduleChange('reschedule', 'Reschedule (RS): the old plan ends, a new one starts; the job.* fields of the new plan, anything of the runs to change', {}, { ...requestSchema('schedule'), required: ['entityId'] }),
    },
    '/scheduling/v1/schedules/{id}/deschedule': { post: scheduleChange('deschedule', 'Deschedule (DS): no run after it', {}) },
    '/scheduling/v1/schedules/{id}/advance': {
      post: scheduleChange('advanceSchedule', 'Test clock (test system only, beyond the specification): move the schedule\'s time forward', { to: 'yyyy-MM-dd HH:mm:ss (UTC), later than the schedule\'s time now' }),
    },
  };
}

/** Paths of endpoints the gateway does not serve yet (ENDPOINT_ROUTES[…].served) are left out. */
function paths(): JsonObject {
  const unserved = new Set(Object.values(ENDPOINT_ROUTES).filter((route) => !route.served).map((route) => route.path));
  return Object.fromEntries(Object.entries(allPaths()).filter(([path]) => !unserved.has(path)));
}

function allPaths(): JsonObject {
  return {
    '/v1/payments': { post: operation('payment', 'PaymentResponse') },
    '/v1/payments/{id}': { post: operation('referencing', 'PaymentResponse'), get: readOperation('getPayment', 'Payment status', 'PaymentResponse') },
    '/v1/registrations': { post: operation('registration', 'PaymentResponse') },
    '/v1/registrations/{id}': {
      get: readOperation('getRegistration', 'Read a registration', 'PaymentResponse'),
      delete: readOperation('deleteRegistration', 'Delete a registration', 'PaymentResponse'),
    },
    '/v1/registrations/{id}/payments': { post: operation('registrationPayment', 'PaymentResponse') },
    '/v1/checkouts': { post: operation('checkout', 'CheckoutResponse') },
    '/v1/checkouts/{id}': {
      post: {
        ...readOperation('updateCheckout', 'Update a checkout before the shopper pays (the parameters of POST /v1/checkouts)', 'CheckoutResponse'),
        parameters: [idPath('Checkout id')],
        requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref(requestSchemaName('checkout')) } } },
      },
    },
    '/v1/checkouts/{id}/payment': {
      post: operation('checkoutPayment', 'PaymentResponse'),
      get: readOperation('getCheckoutPayment', 'Status of the payment of a checkout', 'PaymentResponse'),
    },
    '/v1/checkouts/{id}/registration': {
      post: { ...operation('checkoutPayment', 'PaymentResponse'), operationId: 'checkoutRegistration', summary: "The widget's registration post (a checkout with createRegistration=true and no paymentType)" },
      get: readOperation('getCheckoutRegistration', 'Status of the registration of a checkout', 'PaymentResponse'),
    },
    '/v1/checkouts/{id}/widget': {
      get: { ...readOperation('getWidgetSession', "What the widget shows: amount, state and the checkout's stored cards (public: the checkout id is the credential)", 'Envelope'), parameters: [idPath('Checkout id')], security: [] },
    },
    '/v1/query': { get: operation('query', 'QueryResponse') },
    '/v1/query/{id}': { get: readOperation('queryOne', 'Query one transaction', 'QueryResponse') },
    '/v1/resultcodes': {
      get: {
        operationId: 'listResultCodes',
        summary: 'All result codes with their descriptions',
        security: [],
        responses: { '200': { description: 'The result-code catalogue', content: json(ref('ResultCodeList')) } },
      },
    },
    ...schedulePaths(),
    '/reports/v1/reconciliations/aggregations': { get: operation('reporting', 'Envelope') },
    '/reports/v1/reconciliations/aggregations/{id}': { get: readOperation('settlementDetail', 'Settlement detail: the records of one aggregation (sortValue=SettlementTxDate, sortOrder)', 'Envelope') },
    '/reports/v2/reconciliations/aggregations/{id}': { get: readOperation('settlementDetailPaged', 'Settlement detail, 100 records a page (pageNo; the answer carries pages)', 'Envelope') },
  };
}

export function buildOpenApiDocument(): JsonObject {
  const parameterSchemas = Object.fromEntries(CATALOGUE.filter(isDocumented).map((row) => [PARAMETER_COMPONENTS.get(row)!, valueSchema(row)]));
  const requestSchemas = Object.fromEntries(
    DOCUMENTED_ENDPOINTS.filter((endpoint) => ENDPOINT_ROUTES[endpoint].method === 'post').map((endpoint) => [requestSchemaName(endpoint), requestSchema(endpoint)]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Open payment gateway',
      version: '1',
      description: 'Open Payment Platform compatible API. Request bodies are application/x-www-form-urlencoded (UTF-8); responses are JSON.',
    },
    security: [{ bearerAuth: [] }],
    paths: paths(),
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } }, schemas: { ...requestSchemas, ...RESPONSE_SCHEMAS, ...parameterSchemas } },
  };
}

const envelopeProperties: JsonObject = {
  result: ref('Result'),
  buildNumber: { type: 'string' },
  timestamp: { type: 'string', description: 'yyyy-MM-dd HH:mm:ss+0000 (UTC)', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\\+0000$' },
  ndc: { type: 'string', description: "The request's unique id: <entityId>-<request id>", pattern: '^[a-zA-Z0-9-]{1,69}$' },
};

const RESPONSE_SCHEMAS: JsonObject = {
  Result: {
    type: 'object',
    required: ['code', 'description'],
    properties: {
      code: { type: 'string', pattern: '^[0-9.]{2,11}$' },
      description: { type: 'string' },
      parameterErrors: { type: 'array', items: ref('ParameterError') },
    },
  },
  ParameterError: {
    type: 'object',
    required: ['name', 'value', 'message'],
    properties: { name: { type: 'string' }, value: { type: 'string', description: 'Masked for secret parameters' }, message: { type: 'string' } },
  },
  Envelope: { type: 'object', required: ['result', 'buildNumber', 'timestamp', 'ndc'], properties: envelopeProperties },
  ErrorResponse: {
    allOf: [ref('Envelope')],
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', description: "The declined transaction's id, or the request's own id when the error created nothing" } },
  },
  PaymentResponse: {
    allOf: [ref('Envelope')],
    type: 'object',
    description: 'Echoes the request structures (customer, billing, shipping, cart, customParameters …); clients ignore unknown fields.',
    properties: {
      id: { type: 'string' },
      paymentType: { type: 'string' },
      paymentBrand: { type: 'string' },
      amount: { type: 'string', pattern: '^[0-9]+\\.[0-9]{2}$' },
      currency: { type: 'string' },
      descriptor: { type: 'string' },
      card: { type: 'object', properties: { bin: { type: 'string' }, last4Digits: { type: 'string' }, holder: { type: 'string' }, expiryMonth: { type: 'string' }, expiryYear: { type: 'string' } } },
      resultDetails: { type: 'object', additionalProperties: { type: 'string' } },
      customParameters: { type: 'object', additionalProperties: { type: 'string' } },
    },
  },
  CheckoutResponse: { allOf: [ref('Envelope')], type: 'object', properties: { id: { type: 'string' }, integrity: { type: 'string' } } },
  QueryResponse: { allOf: [ref('Envelope')], type: 'object', properties: { payments: { type: 'array', items: ref('PaymentResponse') } } },
  ResultCodeList: {
    allOf: [ref('Envelope')],
    type: 'object',
    properties: {
      resultCodes: { type: 'array', items: { type: 'object', properties: { code: { type: 'string' }, description: { type: 'string' } } } },
    },
  },
};
