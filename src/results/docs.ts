import { resultCodes } from './catalogue.js';

/** docs/result-codes.md, generated from the catalogue so the two never disagree. */
export function renderResultCodesMarkdown(): string {
  const rows = [...resultCodes.values()].map(
    (entry) => `| \`${entry.code}\` | ${entry.httpStatus} | ${entry.description.replace(/\|/g, '\\|')} |`,
  );
  return [
    '# Result codes',
    '',
    'Generated from `src/results/result-codes.tsv` by `npm run docs`; do not edit by hand.',
    'Every response carries one of these in `result.code`; `GET /v1/resultcodes` lists them as JSON.',
    'The HTTP status is the one the gateway answers with when the code is the outcome of a request.',
    '',
    '| Code | HTTP | Description |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
