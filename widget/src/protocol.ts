/**
 * The messages between the merchant page's script and the gateway's secure field frames
 * (window.postMessage, origins checked on both sides), and among the frames of one form
 * (a BroadcastChannel, which only documents of the gateway's origin can join; frame-binding.ts
 * says which of them a frame deals with). The card number and CVV travel only among the frames of
 * one form: nothing a frame posts to the merchant page holds them.
 */
import type { Member } from './frame-binding.js';
import type { CvvState, NumberState } from './rules/card-number.js';
import { FRAME_STYLE_KINDS, type FrameStyleProperty } from './rules/style-values.js';

/** Marks the widget's messages among whatever else a merchant page posts. */
export const MESSAGE_TAG = 'wpwl';

export type SecureField = 'number' | 'cvv';

export type FrameToPage =
  | { readonly type: 'ready'; readonly field: SecureField }
  | { readonly type: 'number'; readonly state: NumberState; readonly brand: string | undefined; readonly detected: string | undefined }
  | { readonly type: 'cvv'; readonly state: CvvState }
  | { readonly type: 'focus' | 'blur'; readonly field: SecureField }
  | { readonly type: 'enter' }
  | { readonly type: 'result'; readonly status: number; readonly body: Record<string, unknown> | undefined };

export type PageToFrame =
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'focus' }
  /** Empties the field (the CVV after a decline: a retry asks for it again). */
  | { readonly type: 'clear' }
  /** The stored card's brand, for the CVV frame of the stored cards (no number to detect it from). */
  | { readonly type: 'brand'; readonly brand: string | undefined }
  | { readonly type: 'pay'; readonly fields: readonly (readonly [string, string])[] };

/** `from` and `to` are the frames' own random ids, which the merchant page never sees. */
export type FrameToFrame =
  /** Sent when a frame starts; `reply` marks the answer of a frame already there, which is not answered again. */
  | { readonly type: 'hello'; readonly member: Member; readonly reply: boolean }
  | { readonly type: 'brand'; readonly from: string; readonly brand: string | undefined }
  | { readonly type: 'collect'; readonly from: string }
  | { readonly type: 'value'; readonly from: string; readonly to: string; readonly field: SecureField; readonly value: string };

/** What the page tells a frame in its URL's fragment (never sent to a server). */
export interface FrameSettings {
  readonly field: SecureField;
  /** One form's frames share a session: its channel's name. */
  readonly session: string;
  /** The merchant page's origin: the only one the frame talks to. */
  readonly parentOrigin: string;
  readonly checkoutId: string;
  /** The checkout's payment or its registration: where the poster posts. */
  readonly purpose: 'payment' | 'registration';
  /** The card brands of data-brands, for detection. */
  readonly brands: readonly string[];
  /** The frame that posts the payment collects the other fields of its session. */
  readonly poster: boolean;
  /** The other secure fields the poster waits for. */
  readonly collect: readonly SecureField[];
  readonly label: string;
  readonly placeholder: string;
  readonly formatting: boolean;
  readonly lang: string;
  readonly dir: 'ltr' | 'rtl';
  /** font-family, font-size, colours, colour scheme … of the page's own controls, so the frames look the same. */
  readonly style: Readonly<Record<string, string>>;
}

export function encodeSettings(settings: FrameSettings): string {
  return encodeURIComponent(JSON.stringify(settings));
}

export function decodeSettings(fragment: string): FrameSettings | undefined {
  try {
    const settings = JSON.parse(decodeURIComponent(fragment.replace(/^#/, ''))) as FrameSettings;
    return settings.field === 'number' || settings.field === 'cvv' ? settings : undefined;
  } catch {
    return undefined;
  }
}

/** Style properties the page may pass into a frame (rules/style-values.ts checks each value); anything else is ignored. */
export const FRAME_STYLE_PROPERTIES = Object.keys(FRAME_STYLE_KINDS) as FrameStyleProperty[];
