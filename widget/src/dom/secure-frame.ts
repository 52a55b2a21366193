/**
 * The merchant page's side of a secure field: the iframe, and the messages from it, accepted only
 * from that frame's window at the gateway's origin.
 */
import { encodeSettings, FRAME_STYLE_PROPERTIES, MESSAGE_TAG, type FrameSettings, type FrameToPage, type PageToFrame, type SecureField } from '../protocol.js';
import type { WidgetContext } from './context.js';
import { h } from './elements.js';
import { safeFrameStyle } from '../rules/style-values.js';

export interface SecureFrame {
  readonly iframe: HTMLIFrameElement;
  readonly ready: Promise<void>;
  send(message: PageToFrame): void;
  /** Sets the frame's address once the page's controls are laid out, so their font can be passed in. */
  load(style: Record<string, string>): void;
}

export interface FrameOptions {
  readonly field: SecureField;
  readonly session: string;
  readonly brands: readonly string[];
  readonly poster: boolean;
  readonly collect: readonly SecureField[];
  readonly label: string;
  readonly placeholder: string;
  readonly className: string;
  readonly onMessage: (message: FrameToPage) => void;
}

/** The font, colours and colour scheme of the page's own controls, measured once a control is on the page; only safe values. */
export function controlStyle(sample: HTMLElement): Record<string, string> {
  const computed = getComputedStyle(sample);
  return safeFrameStyle(Object.fromEntries(FRAME_STYLE_PROPERTIES.map((property) => [property, computed.getPropertyValue(property)])));
}

export function createSecureFrame(context: WidgetContext, options: FrameOptions, lang: string, dir: 'ltr' | 'rtl'): SecureFrame {
  const settings = (style: Record<string, string>): FrameSettings => ({
    field: options.field,
    session: options.session,
    parentOrigin: location.origin,
    checkoutId: context.checkoutId,
    purpose: context.purpose,
    brands: options.brands,
    poster: options.poster,
    collect: options.collect,
    label: options.label,
    placeholder: options.placeholder,
    formatting: context.numberFormatting,
    lang,
    dir,
    style,
  });
  const iframe = h('iframe', {
    class: `wpwl-control wpwl-control-iframe ${options.className}`,
    title: options.label,
    name: `wpwl-${options.field}-${options.session}`,
    scrolling: 'no',
    frameborder: '0',
    allow: 'payment',
  });
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  window.addEventListener('message', (event: MessageEvent<FrameToPage & { [MESSAGE_TAG]?: string }>) => {
    if (event.origin !== context.gatewayOrigin || event.source !== iframe.contentWindow || event.data?.[MESSAGE_TAG] !== options.session) return;
    if (event.data.type === 'ready') markReady();
    options.onMessage(event.data);
  });
  return {
    iframe,
    ready,
    load: (style) => iframe.setAttribute('src', `${context.base}widget/frame#${encodeSettings(settings(style))}`),
    send: (message) => iframe.contentWindow?.postMessage({ [MESSAGE_TAG]: options.session, ...message }, context.gatewayOrigin),
  };
}
