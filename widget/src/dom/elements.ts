/** A small element builder: attributes and children, text always as text nodes (never innerHTML). */

type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Readonly<Record<string, string | boolean | undefined>> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

let counter = 0;
/** Ids unique on the page, for label for= and aria-describedby. */
export function uniqueId(prefix: string): string {
  counter += 1;
  return `wpwl-${prefix}-${counter}`;
}

/** A random session name for one form's frames. */
export function randomSession(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
