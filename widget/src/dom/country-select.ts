/**
 * The bank country as a <select> (tabs and accordion layouts): the same field name and the same
 * two-letter value as OPPWA's text box, the names in the shopper's language, their country first.
 */
import { countryOptions } from '../rules/countries.js';
import { htmlLang } from '../rules/locale.js';
import type { WidgetContext } from './context.js';
import { h, uniqueId } from './elements.js';

export function countrySelect(context: WidgetContext, preselected: string | undefined): HTMLSelectElement {
  const options = countryOptions(htmlLang(context.locale), preselected);
  const select = h('select', { class: 'wpwl-control wpwl-control-country', id: uniqueId('country'), name: 'bankAccount.country', autocomplete: 'country' });
  // Without a known country the shopper must choose: an empty first entry, refused as "required".
  if (!preselected || !options.some((option) => option.code === preselected)) select.append(h('option', { value: '' }, '—'));
  for (const option of options) select.append(h('option', { value: option.code, selected: option.code === preselected }, option.name));
  return select;
}
