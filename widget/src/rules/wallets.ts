/**
 * The specification's mobile wallets in `data-brands` (WALLETA, WALLETB, WALLETC): the widget
 * never draws a form for them, and shows a wallet button only where the gateway serves its
 * simulated sheet (the test system: `wallets` of GET /v1/checkouts/{id}/widget) and the sheet
 * may be framed here (the gateway lets only the result page's origin frame it).
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
  readonly pageOrigin: string;
  /** The checkout's own result origin, else the form's action. */
  readonly resultUrl: string;
}

/** The wallet brands that get a button, in the page's order. */
export function offeredWallets(offer: WalletOffer): string[] {
  let resultOrigin: string;
  try {
    resultOrigin = new URL(offer.resultUrl).origin;
  } catch {
    return [];
  }
  if (resultOrigin !== offer.pageOrigin) return [];
  return offer.brands.filter((brand) => isWalletBrand(brand) && (offer.served ?? []).includes(brand));
}
