/**
 * The specification's mobile wallets in `data-brands` (WALLETA, WALLETB, WALLETC): the widget
 * never draws a form for them, and shows a wallet button only where the gateway serves its
 * simulated sheet (the test system: `wallets` of GET /v1/checkouts/{id}/widget), on any page.
 * The sheet opens in the widget's dialog where it may be framed (the gateway lets only the
 * result page's origin frame it), else in a popup, else in the whole window.
 */

const WALLETS: Readonly<Record<string, string>> = { WALLETA: 'walletA', WALLETB: 'walletB', WALLETC: 'walletC' };

export function isWalletBrand(brand: string): boolean {
  return Object.hasOwn(WALLETS, brand);
}

/** WALLETA → walletA: the name the API's parameters (walletA.paymentToken) and the texts use. */
export function walletNameOf(brand: string): string {
  return WALLETS[brand] ?? brand;
}

export interface WalletOffer {
  /** The page's brands, in their order. */
  readonly brands: readonly string[];
  /** The wallet brands the gateway's sheet serves for this checkout (none on the live system). */
  readonly served: readonly string[] | undefined;
}

/** The wallet brands that get a button, in the page's order. */
export function offeredWallets(offer: WalletOffer): string[] {
  return offer.brands.filter((brand) => isWalletBrand(brand) && (offer.served ?? []).includes(brand));
}

export interface SheetPlace {
  readonly pageOrigin: string;
  /** The checkout's own result origin, else the form's action. */
  readonly resultUrl: string;
}

/**
 * Where the sheet opens first: the dialog's frame where the page is of the result page's origin
 * (the only one the sheet lets frame it), else a popup (and, when a popup is blocked, the whole
 * window: dom/wallet-buttons.ts).
 */
export function sheetWindowOf(place: SheetPlace): 'frame' | 'popup' {
  try {
    return new URL(place.resultUrl).origin === place.pageOrigin ? 'frame' : 'popup';
  } catch {
    return 'popup';
  }
}
