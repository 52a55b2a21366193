import type { PaymentMethodData } from '../../connectors/connector.js';
import { accountLast4 } from '../../domain/bank.js';
import { cardBin, cardLast4 } from '../../domain/card.js';
import type { FingerprintKind } from '../../domain/vault/index.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { RegistrationMethod } from '../../storage/repositories/registrations.js';
import type { ResolvedPaymentMethod } from '../payments/payment-method.js';

/**
 * How an account is split for storage: the numbers that go into the vault, the data PCI DSS
 * allows in clear, and what its fingerprint is computed from. One-time values (CVV, token
 * cryptogram and dtvc) belong to neither part: they are never stored.
 */
export interface RegistrableAccount {
  readonly method: RegistrationMethod;
  readonly brand: string;
  readonly clear: Readonly<Record<string, string>>;
  /** Sealed by the vault; empty for a virtual account, whose id is no card or bank data. */
  readonly secret: Readonly<Record<string, string>>;
  readonly fingerprint: { readonly kind: FingerprintKind; readonly value: string };
}

/** Drops undefined values, so the clear part only names what the request had. */
function defined(fields: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function bankAccountParts(method: Extract<PaymentMethodData, { kind: 'bankAccount' }>, bankName: string | undefined, mandateDate: string | undefined) {
  const b = method.bankAccount;
  const identifier = b.iban ?? b.number ?? '';
  return {
    clear: defined({ holder: b.holder, bankName, bic: b.bic, bankCode: b.bankCode, country: b.country, last4Digits: accountLast4(identifier), mandateId: b.mandateId, mandateDateOfSignature: mandateDate }),
    secret: defined({ iban: b.iban, number: b.number }),
    // A national account number means something only together with its bank.
    fingerprint: b.iban ? { kind: 'iban' as const, value: b.iban } : { kind: 'bankAccountNumber' as const, value: `${b.country ?? ''}:${b.bankCode ?? b.bic ?? ''}:${b.number ?? ''}` },
  };
}

export interface BankExtras {
  readonly bankName?: string | undefined;
  /** yyyy-MM-dd */
  readonly mandateDateOfSignature?: string | undefined;
}

/** The storable parts of a payment method; wallets cannot be registered (their data is one-time). */
export function registrableAccount(resolved: ResolvedPaymentMethod, bank: BankExtras = {}): RegistrableAccount {
  const { data, brand } = resolved;
  switch (data.kind) {
    case 'card': {
      const c = data.card;
      return {
        method: 'card',
        brand,
        clear: defined({ bin: cardBin(c.number), last4Digits: cardLast4(c.number), holder: c.holder, expiryMonth: c.expiryMonth, expiryYear: c.expiryYear, numberType: c.numberType }),
        secret: { number: c.number },
        fingerprint: { kind: 'card', value: c.number },
      };
    }
    case 'tokenAccount': {
      const t = data.token;
      return {
        method: 'tokenAccount',
        brand,
        clear: defined({ last4Digits: cardLast4(t.number), type: t.type, expiryMonth: t.expiryMonth, expiryYear: t.expiryYear }),
        secret: { number: t.number },
        fingerprint: { kind: 'tokenAccount', value: t.number },
      };
    }
    case 'bankAccount':
      return { method: 'bankAccount', brand, ...bankAccountParts(data, bank.bankName, bank.mandateDateOfSignature) };
    case 'virtualAccount':
      return { method: 'virtualAccount', brand, clear: { accountId: data.accountId }, secret: {}, fingerprint: { kind: 'virtualAccount', value: data.accountId } };
    default:
      throw new GatewayError('600.200.200');
  }
}

/** What one payment adds to stored card data: a CVV for this payment only, a holder for an empty one. */
export interface PaymentAdditions {
  readonly cvv?: string | undefined;
  readonly holder?: string | undefined;
}

const METHOD_CODES = { card: 'CC', tokenAccount: 'CC', bankAccount: 'DD', virtualAccount: 'VA' } as const;

function storedMethodData(method: RegistrationMethod, clear: Readonly<Record<string, string>>, secret: Readonly<Record<string, string>>, additions: PaymentAdditions): PaymentMethodData {
  const c = clear;
  switch (method) {
    case 'card':
      return {
        kind: 'card',
        card: {
          number: secret['number']!,
          expiryMonth: c['expiryMonth']!,
          expiryYear: c['expiryYear']!,
          ...(additions.cvv ? { cvv: additions.cvv } : {}),
          ...(additions.holder ? { holder: additions.holder } : {}),
          ...(c['numberType'] === 'PAN' || c['numberType'] === 'DPAN' ? { numberType: c['numberType'] } : {}),
        },
      };
    case 'tokenAccount':
      return { kind: 'tokenAccount', token: { number: secret['number']!, type: c['type'] === 'NETWORK' ? 'NETWORK' : 'EXTERNAL', ...defined({ expiryMonth: c['expiryMonth'], expiryYear: c['expiryYear'] }) } };
    case 'bankAccount':
      return { kind: 'bankAccount', bankAccount: { holder: c['holder'] ?? '', ...defined({ iban: secret['iban'], number: secret['number'], bic: c['bic'], bankCode: c['bankCode'], country: c['country'], mandateId: c['mandateId'] }) } };
    case 'virtualAccount':
      return { kind: 'virtualAccount', accountId: c['accountId']! };
  }
}

/** The payment method of a registration payment, from the stored parts and this payment's additions. */
export function paymentMethodOfRegistration(
  stored: { readonly method: RegistrationMethod; readonly paymentBrand: string; readonly account: Readonly<Record<string, string>> },
  secret: Readonly<Record<string, string>>,
  additions: PaymentAdditions,
): ResolvedPaymentMethod {
  return { methodCode: METHOD_CODES[stored.method], brand: stored.paymentBrand, data: storedMethodData(stored.method, stored.account, secret, additions) };
}
