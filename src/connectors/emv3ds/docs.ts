import { ERROR_CODES } from './errors.js';
import { MESSAGE_TYPES, SUPPORTED_VERSIONS, type MessageType } from './fields.js';
import type { Condition, FieldFormat, FieldRule, Presence } from './formats.js';
import { rulesOf } from './messages.js';

/**
 * The tables of docs/three-d-secure.md, rendered from the message definitions and the error
 * codes by `npm run docs`; a test fails when the document is stale.
 */
export const EMV3DS_TABLES_BEGIN = '<!-- EMV 3DS message tables: generated from src/connectors/emv3ds/ by `npm run docs` -->';
export const EMV3DS_TABLES_END = '<!-- end of the EMV 3DS message tables -->';

function conditionText(condition: Condition): string {
  if ('all' in condition) return condition.all.map(conditionText).join(' and ');
  if ('absent' in condition) return `${condition.field} absent`;
  if ('present' in condition) return `${condition.field} present`;
  return `${condition.field} = ${condition.in.map(String).join(' or ')}`;
}

function presenceText(presence: Presence | undefined): string {
  if (presence === undefined) return '—';
  if (presence === 'R') return 'required';
  if (presence === 'O') return 'optional';
  return `required when ${conditionText(presence.requiredWhen)}`;
}

export function formatText(format: FieldFormat): string {
  switch (format.kind) {
    case 'string': return `text ${format.min}–${format.max}`;
    case 'numeric': return `${format.min === format.max ? `${format.min} digit${format.min === 1 ? '' : 's'}` : `${format.min}–${format.max} digits`}${format.minValue !== undefined ? `, at least ${format.minValue}` : ''}`;
    case 'enum': return `${format.values.join(', ')}${format.dsRange === true ? ' (80–99 DS)' : ''}`;
    case 'uuid': return 'UUID';
    case 'date': return format.layout;
    case 'url': return `http(s) URL ≤ ${format.max}`;
    case 'base64': return `base64, ${format.length}`;
    case 'version': return 'version, e.g. 2.2.0';
    case 'boolean': return 'true or false';
    case 'anyObject': return 'object';
    case 'object': return `object: ${format.rules.map((rule) => rule.field).join(', ')}`;
    case 'array': return `list of ${format.min}–${format.max}: ${formatText(format.of)}`;
    case 'either': return format.formats.map(formatText).join(', or ');
  }
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

function messageTable(type: MessageType): string[] {
  const [older, newer] = SUPPORTED_VERSIONS.map((version) => new Map(rulesOf(type, version).map((rule) => [rule.field, rule])));
  const fields = [...new Set([...older!.keys(), ...newer!.keys()])];
  const row = (field: string): string => {
    const [before, after] = [older!.get(field), newer!.get(field)] as [FieldRule | undefined, FieldRule | undefined];
    const sameFormat = before && after && formatText(before.format) === formatText(after.format);
    const format = sameFormat || !after ? formatText(before!.format) : !before ? formatText(after.format) : `2.2.0: ${formatText(before.format)}; 2.3.1: ${formatText(after.format)}`;
    return `| \`${field}\` | ${presenceText(before?.presence)} | ${presenceText(after?.presence)} | ${cell(format)} |`;
  };
  return [`#### ${type}`, '', '| Field | 2.2.0 | 2.3.1 | Format |', '|---|---|---|---|', ...fields.map(row), ''];
}

export function renderEmv3dsTables(): string {
  const codes = Object.entries(ERROR_CODES).map(([code, description]) => `| ${code} | ${description} |`);
  return [
    EMV3DS_TABLES_BEGIN, '',
    '### Error codes', '', '| errorCode | errorDescription |', '|---|---|', ...codes, '',
    '### Fields per message', '',
    ...MESSAGE_TYPES.flatMap(messageTable),
    EMV3DS_TABLES_END,
  ].join('\n');
}

export function spliceEmv3dsTables(markdown: string): string {
  const start = markdown.indexOf(EMV3DS_TABLES_BEGIN);
  const end = markdown.indexOf(EMV3DS_TABLES_END);
  if (start < 0 || end < start) throw new Error('docs/three-d-secure.md lacks the EMV 3DS table markers');
  return markdown.slice(0, start) + renderEmv3dsTables() + markdown.slice(end + EMV3DS_TABLES_END.length);
}
