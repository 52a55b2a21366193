import { buildOpenApiDocument } from './openapi.js';

/**
 * A small, self-contained HTML reference of the API rendered from the OpenAPI document: no
 * scripts, no external styles or fonts, so it works offline and under a strict CSP.
 */

type Loose = Record<string, unknown>;

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d1d1f;line-height:1.45}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2.5rem;border-bottom:1px solid #ddd;padding-bottom:.3rem}
code{font-family:ui-monospace,"SFMono-Regular",Menlo,monospace;font-size:.85em;word-break:break-all}
.method{display:inline-block;min-width:4rem;font-weight:600;text-transform:uppercase}
table{border-collapse:collapse;width:100%;font-size:.9rem;margin:.5rem 0}
th,td{border:1px solid #e3e3e3;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f6f6}nav a{margin-right:1rem}
`;

function fieldRows(document: Loose, schema: Loose, requiredNames: ReadonlySet<string>): string {
  const properties = (schema['properties'] ?? {}) as Record<string, Loose>;
  const patterns = (schema['patternProperties'] ?? {}) as Record<string, Loose>;
  const rows = [
    ...Object.entries(properties).map(([name, field]) => [name, field, requiredNames.has(name)] as const),
    ...Object.entries(patterns).map(([name, field]) => [name, field, false] as const),
  ];
  return rows
    .map(([name, reference, required]) => [name, resolveRef(document, reference), required] as const)
    .map(
      ([name, field, required]) =>
        `<tr><td><code>${escapeHtml(name)}</code></td><td>${required ? 'yes' : ''}</td><td>${escapeHtml(String(field['description'] ?? ''))}</td><td><code>${escapeHtml(String(field['pattern'] ?? ''))}</code></td></tr>`,
    )
    .join('\n');
}

function fieldTable(document: Loose, schema: Loose, requiredNames: ReadonlySet<string>): string {
  return `<table><thead><tr><th>Parameter</th><th>Required</th><th>Format</th><th>Pattern</th></tr></thead><tbody>\n${fieldRows(document, schema, requiredNames)}\n</tbody></table>`;
}

function resolveRef(document: Loose, schema: Loose): Loose {
  const target = schema['$ref'];
  if (typeof target !== 'string') return schema;
  const name = target.split('/').pop()!;
  return ((document['components'] as Loose)['schemas'] as Record<string, Loose>)[name] ?? {};
}

function operationSection(document: Loose, path: string, method: string, operation: Loose): string {
  const parts = [`<h2 id="${escapeHtml(String(operation['operationId']))}"><span class="method">${escapeHtml(method)}</span> <code>${escapeHtml(path)}</code></h2>`, `<p>${escapeHtml(String(operation['summary'] ?? ''))}</p>`];
  const parameters = (operation['parameters'] ?? []) as Loose[];
  if (parameters.length > 0) {
    const schema: Loose = { properties: Object.fromEntries(parameters.map((parameter) => [`${parameter['name']} (${parameter['in']})`, parameter['schema'] as Loose])) };
    const required = new Set(parameters.filter((parameter) => parameter['required']).map((parameter) => `${parameter['name']} (${parameter['in']})`));
    parts.push(fieldTable(document, schema, required));
  }
  const body = operation['requestBody'] as Loose | undefined;
  if (body) {
    const content = (body['content'] as Record<string, Loose>)['application/x-www-form-urlencoded']!;
    const schema = resolveRef(document, content['schema'] as Loose);
    parts.push('<p>Form body (application/x-www-form-urlencoded):</p>', fieldTable(document, schema, new Set((schema['required'] ?? []) as string[])));
  }
  return parts.join('\n');
}

/** The whole reference page; `openapiUrl` is where the machine-readable document is served. */
export function renderReferencePage(openapiUrl: string): string {
  const document = buildOpenApiDocument() as Loose;
  const info = document['info'] as Loose;
  const sections: string[] = [];
  const links: string[] = [];
  for (const [path, item] of Object.entries(document['paths'] as Record<string, Record<string, Loose>>)) {
    for (const [method, operation] of Object.entries(item)) {
      links.push(`<a href="#${escapeHtml(String(operation['operationId']))}">${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</a>`);
      sections.push(operationSection(document, path, method, operation));
    }
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(String(info['title']))} API reference</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(String(info['title']))} API reference</h1>
<p>${escapeHtml(String(info['description']))} Every request carries <code>Authorization: Bearer &lt;token&gt;</code> unless noted.
Machine-readable: <a href="${escapeHtml(openapiUrl)}">OpenAPI document</a>.</p>
<nav>${links.join('\n')}</nav>
${sections.join('\n')}
</body></html>
`;
}
