/**
 * The simulated wallet sheet of the widget (docs/widget.md, "Wallets on the test system"): may
 * this checkout be paid with this wallet through the sheet? Only on the test system (a real
 * wallet needs its provider's own script and merchant validation), only a payment checkout that
 * is still open, only a wallet the checkout may take (its own paymentBrand, when the merchant's
 * server named one, and not a brand the risk engine hides from this shopper), and only framed by
 * the result page's origin, as the gateway's other framed pages.
 */
import type { WalletName } from '../../connectors/connector.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { PaymentDeps } from '../deps.js';
import { hiddenBrandsFor } from '../risk/session-risk.js';
import { checkoutGone, latestAttemptStatus, loadLiveCheckout } from './load-checkout.js';

/** The specification's three mobile wallets and the brand each pays as. */
export const SHEET_WALLETS: Readonly<Record<WalletName, string>> = Object.freeze({ walletA: 'WALLETA', walletB: 'WALLETB', walletC: 'WALLETC' });

/** What GET /v1/checkouts/{id}/widget offers on the test system: the wallet brands the sheet serves. */
export const SHEET_WALLET_BRANDS: readonly string[] = Object.freeze(Object.values(SHEET_WALLETS));

export interface WalletSheetRequest {
  readonly checkoutId: string;
  /** As the widget sent it (`walletA`); anything else is refused. */
  readonly wallet: unknown;
  /** The form's action the widget sends; the checkout's own shopperResultUrl wins over it. */
  readonly shopperResultUrl: unknown;
  readonly shopperIp?: string | undefined;
}

export interface WalletSheet {
  readonly checkoutId: string;
  readonly wallet: WalletName;
  readonly brand: string;
  readonly amount: string;
  readonly currency: string;
  /** Where the shopper returns: the only origin that may frame the sheet and receive its message. */
  readonly shopperResultUrl: string;
  readonly resultOrigin: string;
}

/** 600.200.200 Unsupported Payment Method, naming the parameter. */
function unsupported(name: string, value: string, message: string, httpStatus = 400): GatewayError {
  return new GatewayError('600.200.200', { httpStatus, parameterErrors: [{ name, value: value.slice(0, 32), message }] });
}

export function walletNameOf(value: unknown): WalletName | undefined {
  return typeof value === 'string' && Object.hasOwn(SHEET_WALLETS, value) ? (value as WalletName) : undefined;
}

/** An http(s) address without credentials, as a shopperResultUrl must be. */
function resultUrlOf(value: unknown): URL | undefined {
  if (typeof value !== 'string' || value.length > 2048 || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '' ? url : undefined;
}

export async function openWalletSheet(deps: PaymentDeps, request: WalletSheetRequest): Promise<WalletSheet> {
  // Not served on the live system: the same answer whatever the checkout, so nothing is learnt from it.
  if (deps.system !== 'test') throw unsupported('wallet', String(request.wallet ?? ''), 'the simulated wallet sheet is served on the test system only', 404);
  const wallet = walletNameOf(request.wallet);
  if (!wallet) throw unsupported('wallet', String(request.wallet ?? ''), 'must be walletA, walletB or walletC');
  const checkout = await loadLiveCheckout(deps, request.checkoutId);
  if (checkout.purpose !== 'payment') throw checkoutGone(checkout.id, 'a registration checkout takes no wallet payment');
  if (checkout.state === 'completed' || (await latestAttemptStatus(deps, checkout)) === 'success') throw checkoutGone(checkout.id, 'this checkout is paid');
  const brand = SHEET_WALLETS[wallet];
  const parameters = checkout.parameters;
  const named = parameters['paymentBrand'];
  if (named !== undefined && named !== brand) throw unsupported('wallet', wallet, `this checkout is for ${named}`);
  const hidden = await hiddenBrandsFor(deps, { entityId: checkout.entityId, parameters, ip: request.shopperIp });
  if (hidden.includes(brand)) throw new GatewayError('100.400.319', { parameterErrors: [{ name: 'paymentBrand', value: brand, message: 'is not offered to this shopper' }] });
  const resultUrl = resultUrlOf(parameters['shopperResultUrl']) ?? resultUrlOf(request.shopperResultUrl);
  if (!resultUrl) throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'shopperResultUrl', value: '', message: 'an http(s) address of the result page is needed' }] });
  return {
    checkoutId: checkout.id,
    wallet,
    brand,
    amount: parameters['amount'] ?? '0.00',
    currency: parameters['currency'] ?? '',
    shopperResultUrl: resultUrl.href,
    resultOrigin: resultUrl.origin,
  };
}
