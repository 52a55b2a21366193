/**
 * The checkout's stored cards (`.wpwl-form-registrations`): one radio per registration, and the
 * CVV in a gateway frame, which posts the payment with the chosen registrationId.
 */
import type { FrameToPage } from '../protocol.js';
import type { CvvState } from '../rules/card-number.js';
import type { FieldError } from '../rules/outcome.js';
import type { FrameLook } from './card-form.js';
import type { StoredCard, WidgetContext } from './context.js';
import { h, randomSession, uniqueId } from './elements.js';
import { brandMark } from './brand-marks.js';
import { fieldGroup, showFormMessage, submitGroup, type SubmitParts } from './groups.js';
import type { FormParts } from './form-parts.js';
import { createSecureFrame } from './secure-frame.js';
import { handleAnswer, pageFields, setBusy } from './submit.js';
import { showDecline } from './decline.js';

/** `shared`: the one pay button of the tabs and accordion layouts, outside the form; else the form has its own. */
export function registrationsForm(context: WidgetContext, merchantForm: HTMLFormElement, cards: readonly StoredCard[], frameLook: FrameLook, shared?: SubmitParts): FormParts {
  const { labels } = context;
  const session = randomSession();
  let cvv: CvvState = 'empty';
  const form = h('form', { class: 'wpwl-form wpwl-form-registrations wpwl-clearfix', novalidate: true });
  const radioName = uniqueId('registration');
  const rows = cards.map((card, index) => registrationRow(card, radioName, index === 0, context.layout !== 'forms'));
  const list = h('fieldset', { class: 'wpwl-group wpwl-group-registration wpwl-registrations' }, h('legend', { class: 'wpwl-label wpwl-label-registrations' }, labels.storedCards), ...rows.map((row) => row.element));

  const frame = createSecureFrame(
    context,
    { field: 'cvv', session, brands: [], poster: true, collect: [], label: labels.cvv, placeholder: '', className: 'wpwl-control-cvv', onMessage: (message) => onFrame(message) },
    frameLook.lang,
    frameLook.dir,
  );
  const cvvGroup = fieldGroup('cvv', labels.cvv, frame.iframe, { labelFor: false });
  cvvGroup.group.querySelector('.wpwl-label')?.addEventListener('click', () => frame.send({ type: 'focus' }));
  const submit = shared ?? submitGroup(labels.submit);
  form.append(list, cvvGroup.group, ...(shared ? [] : [submit.group]));
  // The CVV's length follows the chosen card's brand (4 digits for AMEX).
  const choose = () => {
    for (const row of rows) row.element.classList.toggle('wpwl-selected', row.radio.checked);
    frame.send({ type: 'brand', brand: (rows.find((row) => row.radio.checked) ?? rows[0])?.card.brand });
  };
  for (const row of rows) row.radio.addEventListener('change', choose);
  void frame.ready.then(choose);

  function onFrame(message: FrameToPage): void {
    if (message.type === 'cvv') {
      cvv = message.state;
      if (cvv === 'valid' && cvvGroup.group.classList.contains('wpwl-has-error')) setCvvError('');
    }
    if (message.type === 'enter') form.requestSubmit();
    if (message.type === 'focus' || message.type === 'blur') frame.iframe.classList.toggle('wpwl-control-focused', message.type === 'focus');
    if (message.type === 'blur' && cvv === 'incomplete') setCvvError(labels.cvvError);
    if (message.type === 'result') {
      const outcome = handleAnswer(context, merchantForm, message.status, message.body, {
        showFieldErrors,
        showMessage: (text) => showFormMessage(submit.message, text),
        showDecline: (reason) => showDecline(labels, submit, reason, {
          clearCvv: () => frame.send({ type: 'clear' }),
          markField: (field) => field === 'cvv' && (setCvvError(labels.cvvError), frame.send({ type: 'focus' }), true),
        }),
      });
      if (outcome.kind !== 'redirect' && outcome.kind !== 'return') setBusy(submit.button, false, labels);
    }
  }
  function setCvvError(message: string): void {
    cvvGroup.setError(message);
    frame.send({ type: 'error', message });
  }
  function showFieldErrors(errors: readonly FieldError[], unplaced: string): void {
    if (errors.some((error) => error.name === 'card.cvv')) setCvvError(labels.cvvError);
    else showFormMessage(submit.message, unplaced);
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (submit.button.disabled) return;
    showFormMessage(submit.message, '');
    // The CVV is optional for a stored card; a started one must be whole.
    if (cvv === 'incomplete') return void (setCvvError(labels.cvvError), frame.send({ type: 'focus' }));
    setCvvError('');
    const chosen = rows.find((row) => row.radio.checked) ?? rows[0]!;
    setBusy(submit.button, true, labels);
    frame.send({ type: 'pay', fields: [['registrationId', chosen.radio.value], ['paymentBrand', chosen.card.brand], ...pageFields(merchantForm)] });
  });

  return { form, mount: () => frame.load(frameLook.style(frame.iframe)), ready: frame.ready, focus: (name) => (name === 'registration' && rows[0] ? (rows[0].radio.focus(), true) : false), brands: [] };
}

function registrationRow(card: StoredCard, radioName: string, checked: boolean, logo: boolean): { element: HTMLElement; radio: HTMLInputElement; card: StoredCard } {
  const radio = h('input', { type: 'radio', name: radioName, value: card.id, class: 'wpwl-control wpwl-control-registration', checked });
  const label = h(
    'label',
    { class: 'wpwl-registration-label' },
    radio,
    h('span', { class: `wpwl-registration-brand wpwl-brand wpwl-brand-${card.brand}` }, logo ? brandMark(card.brand, card.brand) : card.brand),
    h('span', { class: 'wpwl-registration-cardNumber', dir: 'ltr' }, `•••• ${card.last4Digits}`),
    h('span', { class: 'wpwl-registration-expiry', dir: 'ltr' }, `${card.expiryMonth}/${card.expiryYear.slice(-2)}`),
    card.holder ? h('span', { class: 'wpwl-registration-holder' }, card.holder) : null,
  );
  return { element: h('div', { class: `wpwl-registration wpwl-clearfix${checked ? ' wpwl-selected' : ''}` }, label), radio, card };
}
