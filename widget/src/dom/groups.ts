/**
 * OPPWA's markup of one field: `.wpwl-group.wpwl-group-X` holding `.wpwl-label`, `.wpwl-wrapper`
 * with the `.wpwl-control`, and `.wpwl-hint` for its error; with an error the group and the
 * control carry `.wpwl-has-error`, the control `aria-invalid` and `aria-describedby` the hint.
 */
import { h, uniqueId } from './elements.js';

export interface FieldGroup {
  readonly group: HTMLElement;
  readonly hint: HTMLElement;
  /** Shows the message (or clears it with ''). */
  setError(message: string): void;
}

export function fieldGroup(name: string, labelText: string, control: HTMLElement, options: { labelFor?: boolean } = {}): FieldGroup {
  const hintId = uniqueId(`hint-${name}`);
  const labelId = uniqueId(`label-${name}`);
  const useFor = options.labelFor !== false && control.id !== '';
  const label = useFor
    ? h('label', { class: `wpwl-label wpwl-label-${name}`, for: control.id, id: labelId }, labelText)
    : h('div', { class: `wpwl-label wpwl-label-${name}`, id: labelId }, labelText);
  const hint = h('div', { class: `wpwl-hint wpwl-hint-${name}Error`, id: hintId, hidden: true });
  const group = h('div', { class: `wpwl-group wpwl-group-${name} wpwl-clearfix` }, label, h('div', { class: `wpwl-wrapper wpwl-wrapper-${name}` }, control), hint);
  return {
    group,
    hint,
    setError(message: string) {
      hint.textContent = message;
      hint.hidden = message === '';
      group.classList.toggle('wpwl-has-error', message !== '');
      control.classList.toggle('wpwl-has-error', message !== '');
      if (control instanceof HTMLInputElement || control instanceof HTMLSelectElement) {
        if (message) {
          control.setAttribute('aria-invalid', 'true');
          control.setAttribute('aria-describedby', hintId);
        } else {
          control.removeAttribute('aria-invalid');
          control.removeAttribute('aria-describedby');
        }
      }
    },
  };
}

export function textInput(name: string, parameter: string, attributes: Readonly<Record<string, string | boolean | undefined>> = {}): HTMLInputElement {
  return h('input', { type: 'text', class: `wpwl-control wpwl-control-${name}`, id: uniqueId(name), name: parameter, ...attributes });
}

export interface SubmitParts {
  readonly group: HTMLElement;
  readonly button: HTMLButtonElement;
  readonly message: HTMLElement;
}

/** The pay button, and the form-wide message above it (checkout expired, payment failed). */
export function submitGroup(text: string): SubmitParts {
  const button = h('button', { type: 'submit', class: 'wpwl-button wpwl-button-pay' }, text);
  const message = h('div', { class: 'wpwl-message wpwl-has-error', role: 'alert', hidden: true });
  return { group: h('div', { class: 'wpwl-group wpwl-group-submit wpwl-clearfix' }, message, button), button, message };
}

export function showFormMessage(message: HTMLElement, text: string): void {
  message.textContent = text;
  message.hidden = text === '';
  // A decline's look and reason (dom/decline.ts) belong to that message only.
  message.classList.remove('wpwl-message-declined');
  message.removeAttribute('data-reason');
}
