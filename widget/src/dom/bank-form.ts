/**
 * A bank or redirect brand's form: the account fields the brand needs (SEPA: holder, IBAN, BIC;
 * a bank transfer: the bank's country), then the pay button. Nothing here is card data, so the
 * page posts it itself; the answer's redirect sends the shopper to the provider.
 */
import type { BankField, BrandForm } from '../rules/brands.js';
import { isPlausibleIban } from '../rules/iban.js';
import { preferredCountry } from '../rules/countries.js';
import { fillLabel } from '../rules/locale.js';
import type { FieldError } from '../rules/outcome.js';
import type { WidgetContext } from './context.js';
import { h } from './elements.js';
import { brandMark } from './brand-marks.js';
import { countrySelect } from './country-select.js';
import { fieldGroup, showFormMessage, submitGroup, textInput, type FieldGroup, type SubmitParts } from './groups.js';
import type { FormParts } from './form-parts.js';
import { handleAnswer, pageFields, postFromPage, setBusy } from './submit.js';
import { showDecline } from './decline.js';

type BankBrandForm = Extract<BrandForm, { kind: 'bank' }>;
interface BankEntry {
  readonly field: BankField;
  readonly input: HTMLInputElement | HTMLSelectElement;
  readonly group: FieldGroup;
}

const KIND_CLASS: Readonly<Record<string, string>> = { DIRECTDEBIT_SEPA: 'directDebit' };

/** `shared`: the one pay button of the tabs and accordion layouts, outside the form; else the form has its own. */
export function bankForm(context: WidgetContext, merchantForm: HTMLFormElement, spec: BankBrandForm, shared?: SubmitParts): FormParts {
  const { labels } = context;
  const kind = KIND_CLASS[spec.brand] ?? (spec.redirect ? 'virtualAccount' : 'directDebit');
  const form = h('form', { class: `wpwl-form wpwl-form-${kind} wpwl-form-${kind}-${spec.brand} wpwl-clearfix`, novalidate: true, 'data-brand': spec.brand });
  const logo = h('div', { class: 'wpwl-group wpwl-group-brand wpwl-clearfix' }, h('span', { class: `wpwl-brand wpwl-brand-${spec.brand}` }, context.layout === 'forms' ? spec.name : brandMark(spec.brand, spec.name)));
  const fields: BankEntry[] = spec.fields.map((field) => {
    // OPPWA's layout keeps its two-letter box (merchants' CSS and scripts know it); the others choose from a list.
    const input = field.name === 'bankAccount.country' && context.layout !== 'forms' ? countrySelect(context, preselectedCountry(context)) : textInput(field.label, field.name, fieldAttributes(field.name, context));
    return { field, input, group: fieldGroup(field.label, labels[field.label], input) };
  });
  const note = spec.redirect ? h('p', { class: 'wpwl-hint wpwl-hint-redirect' }, fillLabel(labels.redirectNote, { brand: spec.name })) : null;
  const submit = shared ?? submitGroup(labels.submit);
  form.append(logo, ...fields.map((entry) => entry.group.group), ...(note ? [note] : []), ...(shared ? [] : [submit.group]));

  const check = (entry: BankEntry): boolean => {
    const value = entry.input.value.trim();
    let error = '';
    if (value === '' && entry.field.required) error = labels.requiredError;
    else if (value !== '' && entry.field.name === 'bankAccount.iban' && !isPlausibleIban(value)) error = labels.ibanError;
    entry.group.setError(error);
    return error === '';
  };
  for (const entry of fields) entry.input.addEventListener('blur', () => entry.input.value.trim() !== '' && check(entry));
  // A field that shows an error is checked again as the shopper types: the error goes once it is right.
  for (const entry of fields) entry.input.addEventListener('input', () => entry.group.group.classList.contains('wpwl-has-error') && check(entry));
  // A choice from the country list is complete at once.
  for (const entry of fields) if (entry.input instanceof HTMLSelectElement) entry.input.addEventListener('change', () => check(entry));

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (submit.button.disabled) return;
    showFormMessage(submit.message, '');
    const failed = fields.filter((entry) => !check(entry));
    if (failed.length > 0) return failed[0]!.input.focus();
    setBusy(submit.button, true, labels);
    const values = fields.map((entry): [string, string] => [entry.field.name, normalized(entry.field.name, entry.input.value)]).filter(([, value]) => value !== '');
    const answer = await postFromPage(context, [['paymentBrand', spec.brand], ...values, ...pageFields(merchantForm)]);
    const outcome = handleAnswer(context, merchantForm, answer.status, answer.body, {
      showFieldErrors: (errors, unplaced) => showFieldErrors(errors, fields, submit.message, labels, unplaced),
      showMessage: (text) => showFormMessage(submit.message, text),
      showDecline: (reason) => showDecline(labels, submit, reason, {
        markField: (field) => {
          const iban = fields.find((entry) => entry.field.name === 'bankAccount.iban');
          if (field !== 'iban' || !iban) return false;
          iban.group.setError(labels.ibanError);
          iban.input.focus();
          return true;
        },
      }),
    });
    if (outcome.kind !== 'redirect' && outcome.kind !== 'return') setBusy(submit.button, false, labels);
  });

  return { form, mount: () => undefined, ready: Promise.resolve(), focus: (name) => {
      const entry = fields.find((candidate) => candidate.field.name === name);
      entry?.input.focus();
      return entry !== undefined;
    }, brands: [spec.brand] };
}

function fieldAttributes(name: string, context: WidgetContext): Record<string, string> {
  if (name === 'bankAccount.iban') return { autocomplete: 'off', spellcheck: 'false', autocapitalize: 'characters', maxlength: '42', dir: 'ltr' };
  if (name === 'bankAccount.bic') return { autocomplete: 'off', spellcheck: 'false', autocapitalize: 'characters', maxlength: '11', dir: 'ltr' };
  if (name === 'bankAccount.country') return { autocomplete: 'country', maxlength: '2', autocapitalize: 'characters', value: preselectedCountry(context) ?? '', dir: 'ltr' };
  return { autocomplete: 'name', maxlength: '128' };
}

/** The shopper's country as far as the widget knows it (the checkout's, the locale's region, the language's). */
function preselectedCountry(context: WidgetContext): string | undefined {
  return preferredCountry(context.shopperCountry, context.requestedLocale, context.locale);
}

function normalized(name: string, value: string): string {
  const trimmed = value.trim();
  return /bankAccount\.(iban|bic|country)/.test(name) ? trimmed.replace(/\s/g, '').toUpperCase() : trimmed;
}

/** The server's refusal at its field, in the shopper's language (its own message is English); `unplaced` for the others. */
function showFieldErrors(errors: readonly FieldError[], fields: readonly BankEntry[], message: HTMLElement, labels: WidgetContext['labels'], unplaced: string): void {
  let anyUnplaced = false;
  for (const error of errors) {
    const entry = fields.find((candidate) => candidate.field.name === error.name);
    if (!entry) anyUnplaced = true;
    else if (entry.input.value.trim() === '') entry.group.setError(labels.requiredError);
    else entry.group.setError(entry.field.name === 'bankAccount.iban' ? labels.ibanError : unplaced);
  }
  if (anyUnplaced) showFormMessage(message, unplaced);
}
