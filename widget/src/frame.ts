/**
 * The secure field frame (served by the gateway at /v1/widget/frame): one input for the card
 * number or the CVV. It tells the merchant page only the verdict (brand, empty/incomplete/valid),
 * and the poster frame of a form sends the payment itself, same-origin, so the number and the CVV
 * never enter the merchant's page.
 */
import { decodeSettings, MESSAGE_TAG, type FrameSettings, type FrameToFrame, type FrameToPage, type PageToFrame } from './protocol.js';
import { brandOf, caretAfterFormat, cvvLengthOf, cvvState, digitsOf, formatCardNumber, MAX_CARD_DIGITS, numberState } from './rules/card-number.js';
import { admit, answersCollectFrom, newBinding, takesBrandFrom, type Binding } from './frame-binding.js';
import { postPayment } from './frame-payment.js';
import { safeFrameStyle, type FrameStyleProperty } from './rules/style-values.js';

const settings = decodeSettings(location.hash);
if (settings) start(settings);

function start(settings: FrameSettings): void {
  const input = document.getElementById('field') as HTMLInputElement;
  const hint = document.getElementById('hint') as HTMLElement;
  const channel = new BroadcastChannel(`wpwl-${settings.session}`);
  const binding = newBinding({ id: crypto.randomUUID(), field: settings.field, poster: settings.poster, checkoutId: settings.checkoutId, purpose: settings.purpose });
  let brand: string | undefined;

  const toPage = (message: FrameToPage) => window.parent.postMessage({ [MESSAGE_TAG]: settings.session, ...message }, settings.parentOrigin);
  const toFrames = (message: FrameToFrame) => channel.postMessage(message);
  const value = () => (settings.field === 'number' ? digitsOf(input.value) : input.value.replace(/\D/g, ''));

  configureInput(input, settings);

  const report = () => {
    if (settings.field === 'number') {
      const digits = digitsOf(input.value);
      const detected = brandOf(digits, settings.brands);
      if (detected.brand !== brand) toFrames({ type: 'brand', from: binding.self.id, brand: detected.brand });
      brand = detected.brand;
      toPage({ type: 'number', state: numberState(digits, settings.brands), brand: detected.brand, detected: detected.detected });
    } else {
      toPage({ type: 'cvv', state: cvvState(value(), brand) });
    }
  };

  input.addEventListener('input', () => {
    if (settings.field === 'number') reformatNumber(input, settings.formatting, () => brandOf(digitsOf(input.value), settings.brands).brand);
    else input.value = input.value.replace(/\D/g, '').slice(0, cvvLengthOf(brand));
    report();
  });
  input.addEventListener('focus', () => toPage({ type: 'focus', field: settings.field }));
  input.addEventListener('blur', () => toPage({ type: 'blur', field: settings.field }));
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      toPage({ type: 'enter' });
    }
  });

  channel.onmessage = (event: MessageEvent<FrameToFrame>) => {
    // A channel carries only its own origin's messages; the check costs nothing and says so here.
    if (event.origin !== location.origin) return;
    onFrameMessage(event.data, binding, settings, {
      toFrames,
      setBrand: (next) => {
        brand = next;
        input.maxLength = cvvLengthOf(brand);
        if (input.value !== '') report();
      },
      value,
    });
  };
  toFrames({ type: 'hello', member: binding.self, reply: false });

  window.addEventListener('message', (event: MessageEvent<PageToFrame & { [MESSAGE_TAG]?: string }>) => {
    // Only the page that embeds this frame, from the origin it named, may steer it.
    if (event.source !== window.parent || event.origin !== settings.parentOrigin || event.data?.[MESSAGE_TAG] !== settings.session) return;
    const message = event.data;
    if (message.type === 'focus') input.focus();
    if (message.type === 'clear') {
      input.value = '';
      report();
    }
    if (message.type === 'brand' && settings.field === 'cvv') {
      brand = message.brand;
      input.maxLength = cvvLengthOf(brand);
    }
    if (message.type === 'error') showError(input, hint, message.message);
    if (message.type === 'pay' && settings.poster) {
      void postPayment(settings, channel, binding, value(), message.fields).then((result) => toPage({ type: 'result', ...result }));
    }
  });

  toPage({ type: 'ready', field: settings.field });
}

interface FrameActions {
  readonly toFrames: (message: FrameToFrame) => void;
  readonly setBrand: (brand: string | undefined) => void;
  readonly value: () => string;
}

/** The other frames of the session: who is there, the number's brand, the poster's collect. */
function onFrameMessage(message: FrameToFrame, binding: Binding, settings: FrameSettings, actions: FrameActions): void {
  if (message.type === 'hello') {
    admit(binding, message.member);
    if (!message.reply) actions.toFrames({ type: 'hello', member: binding.self, reply: true });
  }
  if (message.type === 'brand' && settings.field === 'cvv' && takesBrandFrom(binding, message.from)) actions.setBrand(message.brand);
  if (message.type === 'collect' && answersCollectFrom(binding, message.from)) {
    actions.toFrames({ type: 'value', from: binding.self.id, to: message.from, field: settings.field, value: actions.value() });
  }
}

function configureInput(input: HTMLInputElement, settings: FrameSettings): void {
  document.documentElement.lang = settings.lang;
  document.documentElement.dir = settings.dir;
  input.setAttribute('aria-label', settings.label);
  // The frame's document is named like its field, in the page's language (the page's iframe title says the same).
  if (typeof settings.label === 'string') document.title = settings.label;
  input.placeholder = settings.placeholder;
  if (settings.field === 'number') {
    input.autocomplete = 'cc-number';
    input.maxLength = MAX_CARD_DIGITS + 4;
    input.name = 'cardnumber';
  } else {
    input.autocomplete = 'cc-csc';
    input.maxLength = 4;
    input.name = 'cvc';
  }
  // The numbers read left to right in every language; the placeholder follows the page.
  input.dir = 'ltr';
  input.style.textAlign = settings.dir === 'rtl' ? 'right' : 'left';
  applyStyle(input, safeFrameStyle(settings.style));
}

/**
 * The page's look, each value checked again here (rules/style-values.ts): the colours go to the
 * frame page's variables, so that its own rule for a field in error can still colour the text;
 * background and colour scheme to the document, whose scheme must match the page's (else the
 * browser paints the frame opaque).
 */
function applyStyle(input: HTMLInputElement, style: Partial<Record<FrameStyleProperty, string>>): void {
  const root = document.documentElement.style;
  for (const [property, styleValue] of Object.entries(style) as [FrameStyleProperty, string][]) {
    if (property === 'color') root.setProperty('--text', styleValue);
    else if (property === '--wpwl-_error') root.setProperty('--error', styleValue);
    else if (property === 'background-color' || property === 'color-scheme') root.setProperty(property, styleValue);
    else input.style.setProperty(property, styleValue);
  }
}

function reformatNumber(input: HTMLInputElement, formatting: boolean, brandNow: () => string | undefined): void {
  const caret = input.selectionStart ?? input.value.length;
  const digitsBeforeCaret = digitsOf(input.value.slice(0, caret)).length;
  const formatted = formatCardNumber(digitsOf(input.value), brandNow(), formatting);
  if (formatted === input.value) return;
  input.value = formatted;
  const position = caretAfterFormat(formatted, digitsBeforeCaret);
  input.setSelectionRange(position, position);
}

/** The page's error text, repeated inside the frame so that a screen reader in the input hears it. */
function showError(input: HTMLInputElement, hint: HTMLElement, message: string): void {
  hint.textContent = message;
  if (message) {
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', 'hint');
  } else {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
  }
}
