/**
 * Where the widget opened the simulated wallet sheet (docs/widget.md, "Wallets on the test
 * system"), as its `window` parameter says, and so how the sheet's last step reaches the shop:
 *
 * - `frame` (the default): the widget's dialog on a page of the result page's origin, the only
 *   origin that may frame the sheet; the outcome is posted to that parent.
 * - `popup`: a window the widget opened from a page of another origin, named by `opener`; the
 *   outcome is posted to the opener, addressed to that origin only (the widget on it accepts it
 *   only from the gateway's origin and from the window it opened).
 * - `page`: the whole window, where a popup was blocked; the sheet ends on the shopperResultUrl
 *   with id and resourcePath, as a redirect payment does, and the shop asks for the result.
 */
import { GatewayError } from '../../results/gateway-error.js';

export type SheetWindow =
  | { readonly kind: 'frame' }
  | { readonly kind: 'popup'; readonly opener: string }
  | { readonly kind: 'page' };

/** An http(s) origin exactly as `location.origin` writes it ('https://shop.example:8443'), nothing more. */
function originOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2048 || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value ? value : undefined;
}

function invalid(name: string, value: unknown, message: string): GatewayError {
  return new GatewayError('200.300.404', { parameterErrors: [{ name, value: String(value ?? '').slice(0, 64), message }] });
}

/** The sheet's `window` and `opener` fields (query or form); a wrong one is refused, never guessed. */
export function sheetWindowOf(fields: Readonly<Record<string, unknown>>): SheetWindow {
  const kind = fields['window'] ?? 'frame';
  if (kind === 'frame') return { kind };
  if (kind === 'page') return { kind };
  if (kind !== 'popup') throw invalid('window', kind, 'must be frame, popup or page');
  const opener = originOf(fields['opener']);
  if (!opener) throw invalid('opener', fields['opener'], 'the http(s) origin of the page that opened the sheet is needed');
  return { kind, opener };
}

/** The fields that carry the window from the sheet to its form post. */
export function sheetWindowFields(window: SheetWindow): [string, string][] {
  if (window.kind === 'frame') return [];
  return window.kind === 'popup' ? [['window', 'popup'], ['opener', window.opener]] : [['window', 'page']];
}
