import { renderResultCodesMarkdown } from '../../results/docs.js';
import { renderParametersMarkdown } from './markdown.js';
import { buildApiDocument } from '../../http/openapi/document.js';
import { renderRequestTypes } from './request-types.js';
import { renderMetricsMarkdown } from '../../observability/metrics-docs.js';

/**
 * Every file rendered from the catalogues (docs/openapi.json: the catalogue's operations and those
 * written beside the routes, src/http/openapi/), by path relative to the repository root: written by
 * `npm run docs`, compared with the committed copies by test/unit/catalogue/docs-current.test.ts.
 */
export function renderGeneratedFiles(): ReadonlyMap<string, string> {
  return new Map([
    ['docs/parameters.md', renderParametersMarkdown()],
    ['docs/openapi.json', `${JSON.stringify(buildApiDocument(), null, 2)}\n`],
    ['docs/result-codes.md', renderResultCodesMarkdown()],
    ['src/catalogue/request-types.generated.ts', renderRequestTypes()],
    ['docs/metrics.md', renderMetricsMarkdown()],
  ]);
}
