/** HTML building blocks of the simulator pages: escaping, and the elements every page shares. */

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/**
 * Text for an element's content or a quoted attribute value. Merchant and brand names come from
 * merchants, so every text passes through here; the backtick too, because old browsers took it
 * as an attribute quote.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (character) => HTML_ESCAPES[character]!);
}

/** Fills `{name}` placeholders of a message: plain text, escaped where it is put into the page. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}

export interface HiddenField {
  readonly name: string;
  readonly value: string;
}

export function hiddenInputs(fields: readonly HiddenField[]): string {
  return fields.map((field) => `<input type="hidden" name="${escapeHtml(field.name)}" value="${escapeHtml(field.value)}">`).join('\n');
}

export interface OutcomeButton {
  readonly value: string;
  readonly label: string;
  readonly style: 'primary' | 'secondary' | 'danger';
}

export function outcomeButtons(buttons: readonly OutcomeButton[]): string {
  return buttons
    .map((button) => `<button type="submit" name="outcome" value="${escapeHtml(button.value)}" class="${button.style}">${escapeHtml(button.label)}</button>`)
    .join('\n');
}

/** A description list of label/value pairs: merchant, amount, card. Values are escaped. */
export function details(rows: readonly (readonly [label: string, value: string])[]): string {
  const items = rows.map(([label, value]) => `<div><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd></div>`).join('\n');
  return `<dl class="details">\n${items}\n</dl>`;
}
