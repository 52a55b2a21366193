/**
 * The card form (`.wpwl-form-card`): number and CVV in the gateway's frames, expiry and holder on
 * the page. The brand is detected as the number is typed (by the number frame, which sends only
 * the verdict); Luhn, length, expiry and holder are checked before anything is sent. A field is
 * checked when the shopper leaves it (an empty one only at payment), and a field showing an
 * error is checked again at every keystroke, so the error goes as soon as the field is right;
 * nothing is said while a shopper types into a field that has shown no error (but a brand that
 * is not accepted, which more digits cannot mend).
 */
import type { FrameToPage } from '../protocol.js';
import type { LabelKey } from '../i18n/keys.js';
import type { CvvState, NumberState } from '../rules/card-number.js';
import { cvvProblem, expiryProblem, holderProblem, HOLDER_MAX_LENGTH, numberProblem, SERVER_FIELD_ERRORS, type CardField } from '../rules/card-checks.js';
import { formatExpiryInput, parseExpiry } from '../rules/expiry.js';
import type { WidgetContext } from './context.js';
import { h, randomSession } from './elements.js';
import { brandMark } from './brand-marks.js';
import { fieldGroup, showFormMessage, submitGroup, textInput, type FieldGroup, type SubmitParts } from './groups.js';
import { createSecureFrame, type SecureFrame } from './secure-frame.js';
import { handleAnswer, pageFields, setBusy } from './submit.js';
import { showDecline } from './decline.js';
import type { DeclineField } from '../rules/decline-reason.js';
import type { FormParts } from './form-parts.js';

interface CardState {
  number: NumberState;
  brand: string | undefined;
  detected: string | undefined;
  cvv: CvvState;
}

/** `shared`: the one pay button of the tabs and accordion layouts, outside the form; else the form has its own. */
export function cardForm(context: WidgetContext, merchantForm: HTMLFormElement, brands: readonly string[], frameLook: FrameLook, shared?: SubmitParts): FormParts {
  const { labels } = context;
  const session = randomSession();
  const state: CardState = { number: 'empty', brand: undefined, detected: undefined, cvv: 'empty' };
  const form = h('form', { class: 'wpwl-form wpwl-form-card wpwl-form-has-inputs wpwl-clearfix', novalidate: true, 'data-brand': '' });
  const logos = brandLogos(brands, context.layout !== 'forms');

  const expiry = textInput('expiry', 'card.expiry', { autocomplete: 'cc-exp', inputmode: 'numeric', placeholder: labels.mmyy, maxlength: '9' });
  const holder = textInput('cardHolder', 'card.holder', { autocomplete: 'cc-name', maxlength: String(HOLDER_MAX_LENGTH), autocapitalize: 'characters', spellcheck: 'false' });

  const onFrame = (message: FrameToPage) => {
    if (message.type === 'number') {
      Object.assign(state, { number: message.state, brand: message.brand, detected: message.detected });
      form.dataset['brand'] = message.brand ?? '';
      logos.show(message.detected);
      if (message.state === 'unsupported') numberGroup.setError(labels.brandNotAccepted);
      // That message was said while typing: it goes with its cause.
      else if (numberGroup.hint.textContent === labels.brandNotAccepted) numberGroup.setError('');
      else if (inError(numberGroup)) show({ number: numberProblem(message.state) });
    }
    if (message.type === 'cvv') {
      state.cvv = message.state;
      if (inError(cvvGroup)) show({ cvv: cvvProblem(message.state, state.brand) });
    }
    if (message.type === 'focus' || message.type === 'blur') frameOf(message.field).iframe.classList.toggle('wpwl-control-focused', message.type === 'focus');
    if (message.type === 'blur') checkSecureField(message.field);
    if (message.type === 'enter') form.requestSubmit();
    if (message.type === 'result') finish(message.status, message.body);
  };
  const numberFrame = createSecureFrame(context, { field: 'number', session, brands, poster: true, collect: ['cvv'], label: labels.cardNumber, placeholder: '', className: 'wpwl-control-cardNumber', onMessage: onFrame }, frameLook.lang, frameLook.dir);
  const cvvFrame = createSecureFrame(context, { field: 'cvv', session, brands, poster: false, collect: [], label: labels.cvv, placeholder: '', className: 'wpwl-control-cvv', onMessage: onFrame }, frameLook.lang, frameLook.dir);
  const frameOf = (field: 'number' | 'cvv'): SecureFrame => (field === 'number' ? numberFrame : cvvFrame);

  const numberGroup = secureGroup('cardNumber', labels.cardNumber, numberFrame);
  const expiryGroup = fieldGroup('expiry', labels.expiryDate, expiry);
  const cvvGroup = secureGroup('cvv', labels.cvv, cvvFrame);
  const holderGroup = fieldGroup('cardHolder', labels.cardHolder, holder);
  const submit = shared ?? submitGroup(labels.submit);
  form.append(logos.group, numberGroup.group, expiryGroup.group, cvvGroup.group, holderGroup.group, ...(shared ? [] : [submit.group]));

  expiry.addEventListener('input', (event) => {
    expiry.value = formatExpiryInput(expiry.value, (event as InputEvent).inputType?.startsWith('delete') ?? false);
    if (inError(expiryGroup)) checkExpiry(true);
  });
  expiry.addEventListener('blur', () => checkExpiry(false));
  holder.addEventListener('blur', () => checkHolder(false));
  holder.addEventListener('input', () => inError(holderGroup) && checkHolder(true));

  const groups: Record<CardField, FieldGroup> = { number: numberGroup, expiry: expiryGroup, cvv: cvvGroup, holder: holderGroup };
  /** Shows each field's problem (or clears it); true when none has one. */
  const show = (problems: Partial<Record<CardField, LabelKey | null>>): boolean => {
    for (const [field, problem] of Object.entries(problems) as [CardField, LabelKey | null][]) groups[field].setError(problem ? labels[problem] : '');
    return Object.values(problems).every((problem) => problem === null);
  };
  function checkExpiry(required: boolean): boolean {
    return show({ expiry: expiryProblem(expiry.value, context.now(), required) });
  }
  function checkHolder(required: boolean): boolean {
    return show({ holder: holderProblem(holder.value, required) });
  }
  /** On leaving a card frame: what it holds, if anything (the frame tells only its verdict). */
  function checkSecureField(field: 'number' | 'cvv'): void {
    if (field === 'number' && state.number !== 'empty') show({ number: numberProblem(state.number) });
    if (field === 'cvv' && state.cvv !== 'empty') show({ cvv: cvvProblem(state.cvv, state.brand) });
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    // Enter in a card frame submits even while the button is disabled: one payment at a time.
    if (submit.button.disabled) return;
    showFormMessage(submit.message, '');
    const problems = {
      number: numberProblem(state.number),
      expiry: expiryProblem(expiry.value, context.now(), true),
      cvv: cvvProblem(state.cvv, state.brand),
      holder: holderProblem(holder.value, true),
    };
    if (!show(problems)) return focus(`card.${(Object.keys(problems) as CardField[]).find((field) => problems[field] !== null)}`);
    if (context.onBeforeSubmitCard && context.onBeforeSubmitCard(form) === false) return;
    const parsed = parseExpiry(expiry.value)!;
    setBusy(submit.button, true, labels);
    numberFrame.send({
      type: 'pay',
      fields: [['paymentBrand', state.brand!], ['card.holder', holder.value.trim()], ['card.expiryMonth', parsed.month], ['card.expiryYear', parsed.year], ...pageFields(merchantForm)],
    });
  });

  function finish(status: number, body: Record<string, unknown> | undefined): void {
    const outcome = handleAnswer(context, merchantForm, status, body, {
      showFieldErrors: (errors, unplaced) => {
        for (const error of errors) {
          const place = SERVER_FIELD_ERRORS[error.name];
          if (place) groups[place[0]].setError(labels[place[1]]);
        }
        if (errors.some((error) => !SERVER_FIELD_ERRORS[error.name])) showFormMessage(submit.message, unplaced);
      },
      showMessage: (text) => showFormMessage(submit.message, text),
      showDecline: (reason) => showDecline(labels, submit, reason, {
        clearCvv: () => cvvFrame.send({ type: 'clear' }),
        markField: (field) => {
          const place = DECLINED_FIELD[field];
          if (!place) return false;
          groups[place[0]].setError(labels[place[1]]);
          return focus(`card.${place[0]}`);
        },
      }),
    });
    if (outcome.kind !== 'redirect' && outcome.kind !== 'return') setBusy(submit.button, false, labels);
  }

  function focus(name: string): boolean {
    const focusables: Record<string, () => void> = {
      'card.number': () => numberFrame.send({ type: 'focus' }),
      'card.cvv': () => cvvFrame.send({ type: 'focus' }),
      'card.expiry': () => expiry.focus(),
      'card.holder': () => holder.focus(),
    };
    focusables[name]?.();
    return focusables[name] !== undefined;
  }
  return {
    form,
    mount: () => {
      const look = frameLook.style(expiry);
      numberFrame.load(look);
      cvvFrame.load(look);
    },
    ready: Promise.all([numberFrame.ready, cvvFrame.ready]).then(() => undefined), focus, brands: [...brands] };
}

/** Where a decline's field is marked, and with which of the field's own error texts. */
const DECLINED_FIELD: Readonly<Partial<Record<DeclineField, readonly [CardField, LabelKey]>>> = {
  number: ['number', 'cardNumberError'],
  expiry: ['expiry', 'expiryDateError'],
  cvv: ['cvv', 'cvvError'],
};

function inError(group: FieldGroup): boolean {
  return group.group.classList.contains('wpwl-has-error');
}

/** The frame's group: its label is no <label> (it cannot point into a frame), so a click on it focuses the frame. */
function secureGroup(name: string, label: string, frame: SecureFrame): FieldGroup {
  const group = fieldGroup(name, label, frame.iframe, { labelFor: false });
  group.group.querySelector('.wpwl-label')?.addEventListener('click', () => frame.send({ type: 'focus' }));
  const setError = group.setError;
  return {
    ...group,
    setError(message: string) {
      setError(message);
      frame.send({ type: 'error', message });
    },
  };
}

/** The accepted brands' marks (text, or the SVG logos of the tabs and accordion layouts); the detected one lit, announced to screen readers. */
function brandLogos(brands: readonly string[], logos: boolean): { group: HTMLElement; show(detected: string | undefined): void } {
  const marks = brands.map((brand) => h('span', { class: `wpwl-brand wpwl-brand-card wpwl-brand-${brand}`, 'data-brand': brand }, logos ? brandMark(brand, brand) : brand));
  const announced = h('span', { class: 'wpwl-sr-only', 'aria-live': 'polite' });
  const group = h('div', { class: 'wpwl-group wpwl-group-brand wpwl-clearfix' }, h('div', { class: 'wpwl-brand-card-list' }, ...marks), announced);
  return {
    group,
    show(detected) {
      for (const mark of marks) {
        mark.classList.toggle('wpwl-brand-detected', mark.dataset['brand'] === detected);
        mark.classList.toggle('wpwl-brand-inactive', detected !== undefined && mark.dataset['brand'] !== detected);
      }
      announced.textContent = detected ?? '';
    },
  };
}

/** How the frames should look: the page's language and direction, and its controls' font. */
export interface FrameLook {
  readonly lang: string;
  readonly dir: 'ltr' | 'rtl';
  style(sample: HTMLElement): Record<string, string>;
}
