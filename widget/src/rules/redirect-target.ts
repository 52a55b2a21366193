/**
 * Where the widget shows a provider's or ACS's page (wpwlOptions.redirectTarget, docs/widget.md).
 * The gateway lets its own pages be framed only by the checkout's result page's origin, so the
 * overlay is chosen only where framing is allowed; a page of another origin (a real provider,
 * which usually refuses framing) opens in a popup; 'page' is the full-page redirect.
 */
export type RedirectTarget = 'page' | 'overlay';
export type RedirectWindow = 'page' | 'overlay' | 'popup';

export interface RedirectPlace {
  readonly target: RedirectTarget;
  readonly redirectUrl: string;
  readonly gatewayOrigin: string;
  /** The merchant page's own origin. */
  readonly pageOrigin: string;
  /** Where the shopper returns: the checkout's shopperResultUrl, else the form's action. */
  readonly resultUrl: string;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * wpwlOptions.redirectTarget as given, else the layout's default: the tabs and accordion layouts
 * (the gateway's own, with no OPPWA page to stay like) keep the shopper on the merchant's page,
 * with the overlay's popup and full-page fallbacks; OPPWA's forms leave for the page, as OPPWA does.
 */
export function redirectTargetOf(option: unknown, layout: 'forms' | 'tabs' | 'accordion'): RedirectTarget {
  if (option === 'overlay' || option === 'page') return option;
  return layout === 'forms' ? 'page' : 'overlay';
}

export function redirectWindowOf(place: RedirectPlace): RedirectWindow {
  if (place.target !== 'overlay') return 'page';
  const framable = originOf(place.redirectUrl) === place.gatewayOrigin && originOf(place.resultUrl) === place.pageOrigin;
  return framable ? 'overlay' : 'popup';
}
