/**
 * The tabs and accordion layouts (wpwlOptions.layout): the forms the OPPWA layout shows one under
 * another (stored cards, the card form, each bank or redirect brand) as the panels of one widget,
 * and the one pay button under them, which submits the selected method's form (its `form`
 * attribute). The forms keep their wpwl-form-* classes, so merchant CSS still finds them.
 * Tabs follow the WAI-ARIA tabs pattern (arrow keys, Home, End, roving tabindex, selection
 * follows focus); the accordion is a button per method with aria-expanded, one open at a time.
 */
import type { WidgetContext, WidgetLayout } from './context.js';
import { brandMark, cardGlyph } from './brand-marks.js';
import { h, uniqueId } from './elements.js';
import type { FormParts } from './form-parts.js';
import { showFormMessage, type SubmitParts } from './groups.js';
import { keyTarget } from '../rules/tab-keys.js';

export interface Method {
  /** What the tab or the accordion's button says: "Card", "Your stored cards", "PayPal". */
  readonly label: string;
  /** The brands whose marks stand beside the label (the first few). */
  readonly brands: readonly string[];
  /** Stored cards and the card form: a tab shows a card rather than their brands. */
  readonly card: boolean;
  readonly part: FormParts;
}

/** Marks beside a method's name; more would crowd a tab at 375 px (the card form lists them all). */
const MARKS_PER_METHOD = 3;

interface Header {
  readonly element: HTMLButtonElement;
  readonly panel: HTMLElement;
}

export function methodsWidget(context: WidgetContext, methods: readonly Method[], shared: SubmitParts): HTMLElement {
  const layout = context.layout as Exclude<WidgetLayout, 'forms'>;
  const headers: Header[] = methods.map((method) => header(layout, method));
  const select = (index: number, focus: boolean) => {
    // A payment on its way keeps its method: the answer comes back to that form.
    if (shared.button.disabled) return;
    headers.forEach((entry, other) => {
      const chosen = other === index;
      entry.element.setAttribute(layout === 'tabs' ? 'aria-selected' : 'aria-expanded', String(chosen));
      if (layout === 'tabs') entry.element.tabIndex = chosen ? 0 : -1;
      entry.element.classList.toggle('wpwl-selected', chosen);
      entry.panel.hidden = !chosen;
    });
    shared.button.setAttribute('form', methods[index]!.part.form.id);
    showFormMessage(shared.message, '');
    if (focus) headers[index]!.element.focus();
    // The tabs' row scrolls sideways where they do not fit; focus alone does not always bring a tab into it.
    if (focus && layout === 'tabs') reveal(headers[index]!.element);
  };
  headers.forEach((entry, index) => entry.element.addEventListener('click', () => {
    select(index, false);
    if (layout === 'tabs') reveal(entry.element);
  }));
  select(0, false);
  if (layout === 'accordion') {
    const items = headers.map((entry) => h('div', { class: 'wpwl-method' }, entry.element, entry.panel));
    return h('div', { class: 'wpwl-methods wpwl-methods-accordion' }, ...items, shared.group);
  }
  const list = h('div', { class: 'wpwl-tabs', role: 'tablist', 'aria-label': context.labels.paymentMethods }, ...headers.map((entry) => entry.element));
  list.addEventListener('keydown', (event) => {
    const next = keyTarget(event.key, headers.findIndex((entry) => entry.element === document.activeElement), headers.length, getComputedStyle(list).direction === 'rtl');
    if (next === undefined) return;
    event.preventDefault();
    select(next, true);
  });
  return h('div', { class: 'wpwl-methods wpwl-methods-tabs' }, list, ...headers.map((entry) => entry.panel), shared.group);
}

/** The whole tab in view in its row, moving the page as little as may be. */
function reveal(tab: HTMLElement): void {
  tab.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

function header(layout: 'tabs' | 'accordion', method: Method): Header {
  const form = method.part.form;
  form.id ||= uniqueId('form');
  const id = uniqueId(`method-${layout}`);
  const panelId = uniqueId('panel');
  // A tab has room for one mark: cards show a card (their brands are listed in the form).
  const shown = layout === 'tabs' && method.card ? [] : method.brands.slice(0, MARKS_PER_METHOD);
  const marks = h('span', { class: 'wpwl-method-logos', 'aria-hidden': 'true' }, ...(shown.length > 0 ? shown.map((brand) => brandMark(brand, brand)) : [cardGlyph()]));
  const text = h('span', { class: 'wpwl-method-label' }, method.label);
  const attributes = layout === 'tabs'
    ? { type: 'button', role: 'tab', id, class: 'wpwl-tab', 'aria-controls': panelId }
    : { type: 'button', id, class: 'wpwl-method-header', 'aria-controls': panelId };
  const element = h('button', attributes, layout === 'accordion' ? h('span', { class: 'wpwl-method-radio', 'aria-hidden': 'true' }) : null, text, marks);
  const panel = h('div', { class: 'wpwl-panel', id: panelId, role: layout === 'tabs' ? 'tabpanel' : 'region', 'aria-labelledby': id }, form);
  return { element, panel };
}
