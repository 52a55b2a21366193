/**
 * The request-parameter catalogue and its one validation engine: the public surface for routes
 * and operations. Everything else in this folder is an implementation detail.
 */
export { validateRequest, type ValidationIssue, type ValidationResult } from './engine.js';
export { echoRequest, type EchoObject, type EchoValue } from './echo.js';
export { CATALOGUE, endpointCatalogue, isEndpoint } from './catalogue.js';
export { RULES } from './rules/index.js';
export { THREE_D_SECURE_V2_SIGNALS } from './three-d-secure-fields.js';
export { renderParametersMarkdown } from './render/markdown.js';
export { buildOpenApiDocument } from './render/openapi.js';
export { ENDPOINTS } from './types.js';
export type { Endpoint, EndpointUse, FieldFormat, ParameterRow, RequestBody, Requirement, UnknownParameterMode, ValidationContext } from './types.js';
export type * from './request-types.generated.js';
