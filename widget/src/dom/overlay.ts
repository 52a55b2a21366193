/**
 * wpwlOptions.redirectTarget = 'overlay': the provider's or ACS's page in a modal dialog on the
 * merchant's page (a native <dialog>: the page behind is inert, so focus stays inside; Escape
 * and the close button cancel), or in a popup where the page may not be framed, or the whole
 * window when a popup is blocked. The frame ends with the gateway's message naming the result
 * page (src/http/widget/overlay-return.ts); the widget then takes the top window there.
 */
import { directionOf, htmlLang } from '../rules/locale.js';
import type { RedirectInstruction } from '../rules/outcome.js';
import type { RedirectWindow } from '../rules/redirect-target.js';
import type { WidgetContext } from './context.js';
import { h, uniqueId } from './elements.js';

const POPUP_FEATURES = 'popup,width=480,height=640';
const POPUP_POLL_MS = 500;

/** A form that opens the redirect in the window or frame named `target` (GET inputs carry the URL's query). */
export function redirectForm(redirect: RedirectInstruction, target: string): HTMLFormElement {
  const url = new URL(redirect.url);
  const inputs: [string, string][] = redirect.parameters.map((p) => [p.name, p.value]);
  if (redirect.method === 'GET') {
    inputs.unshift(...url.searchParams);
    url.search = '';
  }
  const form = h('form', { method: redirect.method.toLowerCase(), action: url.toString(), target, hidden: true });
  for (const [name, value] of inputs) form.append(h('input', { type: 'hidden', name, value }));
  return form;
}

function submitInto(redirect: RedirectInstruction, target: string): void {
  const form = redirectForm(redirect, target);
  document.body.append(form);
  form.submit();
  form.remove();
}

/** The pay buttons the payment left busy: the shopper may pay again, with this or another brand. */
function releaseButtons(context: WidgetContext): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('.wpwl-button-pay[aria-busy="true"]')) {
    button.disabled = false;
    button.textContent = context.labels.submit;
    button.setAttribute('aria-busy', 'false');
  }
}

export interface FrameDialog {
  /** The frame's name: a form's target, or set the frame's src. */
  readonly name: string;
  readonly frame: HTMLIFrameElement;
  /** Ends the dialog without calling onCancel (the frame's page said it is done). */
  close(): void;
}

/**
 * A modal dialog with a frame of the gateway's pages: `onMessage` gets what that frame (and only
 * it, from the gateway's origin) posts with the widget's tag; `onCancel` runs when the shopper
 * closes the dialog (its close button or Escape).
 */
export function frameDialog(context: WidgetContext, title: string, onMessage: (data: Record<string, unknown>) => void, onCancel: () => void): FrameDialog {
  const name = uniqueId('overlay');
  const titleId = `${name}-title`;
  const frame = h('iframe', { class: 'wpwl-overlay-frame', name, title });
  const closeButton = h('button', { type: 'button', class: 'wpwl-button wpwl-button-close', 'aria-label': context.labels.close }, '×');
  // Focus that leaves the frame's end (or the close button backwards) comes round again, instead
  // of leaving for the browser's own controls as a modal dialog otherwise lets it.
  const wrap = (next: HTMLElement) => {
    const edge = h('span', { tabindex: '0', class: 'wpwl-sr-only' });
    edge.addEventListener('focus', () => next.focus());
    return edge;
  };
  const dialog = h('dialog', { class: 'wpwl-overlay', 'aria-labelledby': titleId, lang: htmlLang(context.locale), dir: directionOf(context.locale) },
    wrap(frame), h('div', { class: 'wpwl-overlay-bar' }, h('h2', { class: 'wpwl-overlay-title', id: titleId }, title), closeButton), frame, wrap(closeButton));
  const listener = (event: MessageEvent) => {
    const data = event.data as Record<string, unknown> | null;
    if (event.origin !== context.gatewayOrigin || event.source !== frame.contentWindow || data?.['tag'] !== 'wpwl') return;
    onMessage(data);
  };
  const close = () => {
    window.removeEventListener('message', listener);
    dialog.close();
    dialog.remove();
  };
  const cancel = () => {
    close();
    onCancel();
  };
  window.addEventListener('message', listener);
  closeButton.addEventListener('click', cancel);
  // Escape: the dialog's own cancel event.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    cancel();
  });
  document.body.append(dialog);
  dialog.showModal();
  // The focus starts on the close button: a key pressed inside the provider's frame, of another
  // origin, never reaches this page, so Escape works from the dialog's own controls.
  closeButton.focus();
  return { name, frame, close };
}

/**
 * A popup of the gateway's pages for a page that may not frame them: `onMessage` gets what that
 * window (and only it, from the gateway's origin) posts with the widget's tag, once; `onClosed`
 * runs when the shopper closes it first. False when the browser blocked the popup.
 */
export function messagePopup(context: WidgetContext, url: string, onMessage: (data: Record<string, unknown>) => void, onClosed: () => void): boolean {
  const popup = window.open(url, uniqueId('popup'), POPUP_FEATURES);
  if (!popup) return false;
  const end = () => {
    clearInterval(timer);
    window.removeEventListener('message', listener);
  };
  const listener = (event: MessageEvent) => {
    const data = event.data as Record<string, unknown> | null;
    if (event.origin !== context.gatewayOrigin || event.source !== popup || data?.['tag'] !== 'wpwl') return;
    end();
    popup.close();
    onMessage(data);
  };
  const timer = setInterval(() => {
    if (!popup.closed) return;
    end();
    onClosed();
  }, POPUP_POLL_MS);
  window.addEventListener('message', listener);
  return true;
}

function openOverlay(context: WidgetContext, redirect: RedirectInstruction, opener: Element | null): void {
  const onMessage = (data: Record<string, unknown>) => {
    if (data['type'] === 'return' && typeof data['url'] === 'string' && /^https?:\/\//i.test(data['url'])) window.top!.location.href = data['url'];
  };
  const dialog = frameDialog(context, context.labels.overlayTitle, onMessage, () => {
    releaseButtons(context);
    if (opener instanceof HTMLElement) opener.focus();
  });
  submitInto(redirect, dialog.name);
}

/** The popup: when it reaches the merchant's result page (readable again: the page's own origin), the top window follows. */
function openPopup(context: WidgetContext, redirect: RedirectInstruction, fallback: () => void): void {
  const name = uniqueId('popup');
  const popup = window.open('about:blank', name, POPUP_FEATURES);
  if (!popup) return fallback();
  submitInto(redirect, name);
  const timer = setInterval(() => {
    if (popup.closed) {
      clearInterval(timer);
      releaseButtons(context);
      return;
    }
    let href: string | undefined;
    try {
      href = popup.location.href;
    } catch {
      return; // still on the provider's or gateway's page
    }
    if (!href || !/^https?:/.test(href)) return;
    clearInterval(timer);
    popup.close();
    window.top!.location.href = href;
  }, POPUP_POLL_MS);
}

export function openRedirect(context: WidgetContext, redirect: RedirectInstruction, where: RedirectWindow, fullPage: () => void): void {
  if (where === 'overlay') openOverlay(context, redirect, document.activeElement);
  else if (where === 'popup') openPopup(context, redirect, fullPage);
  else fullPage();
}
