/**
 * Control characters in client text. NUL cannot be stored in a PostgreSQL text value at all, and
 * the other C0 controls and DEL have no business in names, references or addresses: they end up in
 * statement descriptors, reports and log lines, where a line break or tab forges a line or a column.
 * Tab and line breaks are admitted only where the text is meant to span lines (descriptions,
 * messages, opaque blobs such as a wallet's payment token).
 */

/** C0 controls (NUL … US) and DEL, except tab, line feed and carriage return. */
const ALWAYS_REFUSED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Every C0 control and DEL. */
const ANY_CONTROL = /[\u0000-\u001F\u007F]/;

export type LineBreaks = 'refused' | 'allowed';

/** The message for a value with a control character it may not hold, or undefined. */
export function controlCharacterProblem(value: string, lineBreaks: LineBreaks = 'refused'): string | undefined {
  if (lineBreaks === 'allowed') return ALWAYS_REFUSED.test(value) ? 'must not contain control characters' : undefined;
  return ANY_CONTROL.test(value) ? 'must not contain control characters, tabs or line breaks' : undefined;
}
