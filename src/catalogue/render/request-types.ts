import { CATALOGUE } from '../catalogue.js';
import { parsePattern } from '../names.js';
import { ENDPOINTS, type Endpoint, type FieldFormat, type ParameterRow } from '../types.js';

/**
 * Renders src/catalogue/request-types.generated.ts: the TypeScript shape of a validated request,
 * derived from the same rows the engine and the typed-request builder read, so the three can never
 * drift apart (a test compares the committed file with this rendering).
 */

interface TypeNode {
  readonly properties: Map<string, TypeNode>;
  readonly literals: Set<string>;
  readonly bases: Set<string>;
  item?: TypeNode; // [n]
  mapValue?: TypeNode; // [name]
  quotedKeys?: boolean; // literal map keys such as [NF-ITEMSNB]
}

const newNode = (): TypeNode => ({ properties: new Map(), literals: new Set(), bases: new Set() });

function leafType(format: FieldFormat, node: TypeNode): void {
  if (format.kind === 'text' && format.enumValues) format.enumValues.forEach((value) => node.literals.add(JSON.stringify(value)));
  else node.bases.add({ text: 'string', amount: 'bigint', boolean: 'boolean', date: 'Date', dateTime: 'Date', timestamp: 'Date', integer: 'number', list: 'readonly string[]' }[format.kind]);
}

function addRow(root: TypeNode, row: ParameterRow): void {
  let node = root;
  for (const segment of parsePattern(row.name)) {
    if (segment.kind === 'index') node = node.item ??= newNode();
    else if (segment.kind === 'mapKey') node = node.mapValue ??= newNode();
    else {
      if (segment.kind === 'literalKey') node.quotedKeys = true;
      let child = node.properties.get(segment.key);
      if (!child) node.properties.set(segment.key, (child = newNode()));
      node = child;
    }
  }
  leafType(row.format, node);
}

function buildTree(rows: readonly ParameterRow[]): TypeNode {
  const root = newNode();
  rows.forEach((row) => addRow(root, row));
  return root;
}

const ROOT = 'PaymentRequest';
const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const singular = (word: string) => (word.endsWith('s') ? word.slice(0, -1) : word);
/** Names that would shadow a global type. */
const RESERVED: Record<string, string> = { Date: 'DateRange' };

class Renderer {
  readonly declarations: string[] = [];

  typeOf(node: TypeNode, name: string, inline: boolean): string {
    if (node.item) return `readonly ${this.typeOf(node.item, singular(name), inline)}[]`;
    if (node.mapValue) return `Readonly<Record<string, ${this.typeOf(node.mapValue, `${name}Value`, inline)}>>`;
    if (node.properties.size === 0 && node.literals.size + node.bases.size === 0) return '{}';
    if (node.properties.size === 0) return node.bases.has('string') ? 'string' : [...node.literals, ...node.bases].join(' | ');
    return inline ? this.objectLiteral(node, name, true) : this.declare(node, RESERVED[name] ?? name);
  }

  objectLiteral(node: TypeNode, name: string, inline: boolean): string {
    const optional = inline ? '' : '?';
    const members = [...node.properties].map(([key, child]) => {
      const property = node.quotedKeys || !/^[A-Za-z_$][\w$]*$/.test(key) ? JSON.stringify(key) : key;
      const childName = (name === ROOT ? '' : name) + pascal(key);
      return `readonly ${property}${optional}: ${this.typeOf(child, childName, inline)};`;
    });
    return inline ? `{ ${members.join(' ')} }` : `{\n${members.map((member) => `  ${member}`).join('\n')}\n}`;
  }

  /** Reserves its slot before the children declare theirs, so parents come first in the file. */
  declare(node: TypeNode, name: string): string {
    const slot = this.declarations.push('') - 1;
    this.declarations[slot] = `export interface ${name} ${this.objectLiteral(node, name, false)}\n`;
    return name;
  }
}

function requiredTree(endpoint: Endpoint): TypeNode {
  return buildTree(CATALOGUE.filter((row) => row.use[endpoint] === 'R'));
}

export function renderRequestTypes(): string {
  const renderer = new Renderer();
  renderer.declare(buildTree(CATALOGUE), ROOT);
  const requiredOn = ENDPOINTS.map((endpoint) => `  readonly ${endpoint}: ${renderer.typeOf(requiredTree(endpoint), 'Required', true)};`);
  return [
    '// Generated from the parameter catalogue by `npm run docs`; do not edit by hand.',
    "import type { Endpoint } from './types.js';",
    '',
    '/** Every parameter any endpoint accepts, after validation: amounts in hundredths, dates as Date. */',
    ...renderer.declarations,
    '/** What each endpoint requires, so a validated request of that endpoint has these for sure. */',
    'export interface RequiredOnEndpoint {',
    ...requiredOn,
    '}',
    '',
    'export type EndpointRequest<E extends Endpoint = Endpoint> = PaymentRequest & RequiredOnEndpoint[E];',
    '',
  ].join('\n');
}
