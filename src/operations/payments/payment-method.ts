import type { PaymentRequest } from '../../catalogue/request-types.generated.js';
import type { CardDetails, PaymentMethodData, ShopperBankDetails, WalletName } from '../../connectors/connector.js';
import { detectCardBrand } from '../../domain/card.js';
import { asynchronousBrand } from '../../domain/payment-brands.js';
import { GatewayError } from '../../results/gateway-error.js';

type AsynchronousMethodCode = NonNullable<ReturnType<typeof asynchronousBrand>>['methodCode'];

/** An asynchronous brand pays on the provider's page: the request only describes the shopper's bank. */
function asynchronousMethod(request: PaymentRequest): ResolvedPaymentMethod | undefined {
  const entry = request.paymentBrand === undefined ? undefined : asynchronousBrand(request.paymentBrand);
  // A virtual account (a PayPal billing agreement, say) is charged directly: no shopper to send away.
  if (!entry || request.virtualAccount?.accountId) return undefined;
  const b = request.bankAccount;
  const bank: { -readonly [K in keyof ShopperBankDetails]?: string } = {};
  if (b?.country) bank.country = b.country;
  if (b?.bankName) bank.bankName = b.bankName;
  if (b?.bic) bank.bic = b.bic;
  if (b?.iban) bank.iban = b.iban;
  if (b?.holder) bank.holder = b.holder;
  return { methodCode: entry.methodCode, brand: entry.brand, data: { kind: 'asynchronous', bank } };
}

/** The account a request pays with, its method code for queries, and its brand. */
export interface ResolvedPaymentMethod {
  readonly data: PaymentMethodData;
  /** The query API's paymentMethods code: CC card, DD direct debit, VA virtual account, WA wallet. */
  readonly methodCode: 'CC' | 'DD' | 'VA' | 'WA' | AsynchronousMethodCode;
  readonly brand: string;
}

const WALLETS: readonly WalletName[] = ['walletA', 'walletB', 'walletC'];
// The brand a wallet payment carries when the merchant did not name one.
const WALLET_BRANDS: Readonly<Record<WalletName, string>> = { walletA: 'WALLETA', walletB: 'WALLETB', walletC: 'WALLETC' };

function cardOf(card: NonNullable<PaymentRequest['card']>): CardDetails {
  return {
    number: card.number!,
    expiryMonth: card.expiryMonth!,
    expiryYear: card.expiryYear!,
    ...(card.cvv ? { cvv: card.cvv } : {}),
    ...(card.holder ? { holder: card.holder } : {}),
    ...(card.numberType ? { numberType: card.numberType } : {}),
  };
}

function walletMethod(request: PaymentRequest, wallet: WalletName): ResolvedPaymentMethod | undefined {
  const data = request[wallet];
  if (!data) return undefined;
  const brand = request.paymentBrand ?? WALLET_BRANDS[wallet];
  if (data.paymentToken) {
    const extra = wallet === 'walletA' ? (request.walletA ?? {}) : {};
    return {
      methodCode: 'WA',
      brand,
      data: {
        kind: 'walletToken',
        wallet,
        paymentToken: data.paymentToken,
        ...('cardNetwork' in extra && extra.cardNetwork ? { cardNetwork: extra.cardNetwork } : {}),
        ...('cardType' in extra && extra.cardType ? { cardType: extra.cardType } : {}),
      },
    };
  }
  if (data.source && request.card?.number) {
    const { eci, verificationId } = request.threeDSecure ?? {};
    return {
      methodCode: 'WA',
      brand,
      data: { kind: 'walletDecrypted', wallet, source: data.source, card: cardOf(request.card), ...(eci ? { eci } : {}), ...(verificationId ? { verificationId } : {}) },
    };
  }
  return undefined;
}

/**
 * Reads the payment method from a validated request. The catalogue has already checked each
 * structure's own fields; this decides which structure pays.
 */
export function resolvePaymentMethod(request: PaymentRequest): ResolvedPaymentMethod {
  const asynchronous = asynchronousMethod(request);
  if (asynchronous) return asynchronous;
  for (const wallet of WALLETS) {
    const method = walletMethod(request, wallet);
    if (method) return method;
  }
  if (request.card?.number) {
    const brand = request.paymentBrand ?? detectCardBrand(request.card.number) ?? 'UNKNOWN';
    return { methodCode: 'CC', brand, data: { kind: 'card', card: cardOf(request.card) } };
  }
  if (request.tokenAccount?.number) {
    const { number, type, expiryMonth, expiryYear, cryptogram, dtvc } = request.tokenAccount;
    const brand = request.paymentBrand ?? detectCardBrand(number) ?? 'UNKNOWN';
    return {
      methodCode: 'CC',
      brand,
      data: { kind: 'tokenAccount', token: { number, type: type ?? 'EXTERNAL', ...(expiryMonth ? { expiryMonth } : {}), ...(expiryYear ? { expiryYear } : {}), ...(cryptogram ? { cryptogram } : {}), ...(dtvc ? { dtvc } : {}) } },
    };
  }
  if (request.bankAccount && (request.bankAccount.iban || request.bankAccount.number)) {
    const b = request.bankAccount;
    return {
      methodCode: 'DD',
      brand: request.paymentBrand ?? 'DIRECTDEBIT_SEPA',
      data: {
        kind: 'bankAccount',
        bankAccount: {
          holder: b.holder ?? '',
          ...(b.iban ? { iban: b.iban } : {}),
          ...(b.number ? { number: b.number } : {}),
          ...(b.bic ? { bic: b.bic } : {}),
          ...(b.bankCode ? { bankCode: b.bankCode } : {}),
          ...(b.country ? { country: b.country } : {}),
          ...(b.mandate?.id ? { mandateId: b.mandate.id } : {}),
        },
      },
    };
  }
  if (request.virtualAccount?.accountId) {
    return { methodCode: 'VA', brand: request.paymentBrand ?? 'VIRTUAL', data: { kind: 'virtualAccount', accountId: request.virtualAccount.accountId } };
  }
  throw new GatewayError('100.100.100');
}

/** Numbers a connector must never echo back in resultDetails. */
export function secretNumbersOf(method: PaymentMethodData): string[] {
  switch (method.kind) {
    case 'card':
    case 'walletDecrypted':
      return [method.card.number];
    case 'tokenAccount':
      return [method.token.number];
    case 'bankAccount':
      return [method.bankAccount.iban, method.bankAccount.number].filter((n): n is string => n !== undefined);
    case 'asynchronous':
      return method.bank.iban ? [method.bank.iban] : [];
    default:
      return [];
  }
}
