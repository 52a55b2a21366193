/**
 * Asynchronous payment brands: the shopper leaves the merchant's page for the method's own page
 * (a bank's online banking, a wallet's login, a voucher or invoice provider) and comes back to
 * `shopperResultUrl`. The first answer is pending with a redirect; the outcome arrives later.
 *
 * The list holds the typical redirect brands of the reference (`compatibility.md`: PAYPAL …
 * ALIPAY), every redirect brand the captured OPPWA clients send
 * (`reference/client-captures/opp-python.requests.jsonl`), and the sibling variants those
 * clients list beside them (KLARNA_INSTALLMENTS, PAYOLUTION_INVOICE).
 *
 * `required` names what the method cannot start without, never more than the captured clients
 * send: a provider that picks the shopper's bank from a country list needs the country; an
 * invoice or instalment provider checks the shopper's credit on name, address and e-mail; a
 * boleto is printed with the payer's name and address. Where the shopper logs in to an account of
 * the provider (PayPal, Skrill …) the provider knows the rest.
 *
 * `methodCode` is the query API's `paymentMethods` code (core.md, query): the spec lists the codes
 * without meanings, so each is read from its OPPWA/PAY.ON name, and the reason for each brand is
 * given beside it:
 *   OT online transfer: the shopper approves a transfer in their own online banking;
 *   VA virtual account: the shopper logs in to an account held at the provider;
 *   PP prepayment: the money is paid before the goods, by transfer, boleto or prepaid voucher;
 *   IV invoice: the provider pays the merchant, the shopper pays the provider later;
 *   DC debit card: a bank's debit card, authorised on the bank's own page;
 *   DD direct debit: the provider debits the shopper's account after its own checks.
 */

export type AsynchronousMethodCode = 'OT' | 'VA' | 'IV' | 'PP' | 'ET' | 'UA' | 'NT' | 'DC' | 'OD' | 'RM' | 'CT' | 'DD';

export interface AsynchronousBrand {
  /** The paymentBrand value: 'SOFORTUEBERWEISUNG'. */
  readonly brand: string;
  /** Shopper-facing name: 'Sofort'. */
  readonly name: string;
  readonly methodCode: AsynchronousMethodCode;
  /** Parameter names the method needs besides shopperResultUrl. */
  readonly required: readonly string[];
  readonly redirectMethod: 'GET' | 'POST';
}

/** Bank selection by country: the provider shows the banks of that country. */
const BANK_COUNTRY = ['bankAccount.country'] as const;
const NAMES = ['customer.givenName', 'customer.surname'] as const;
const BILLING_ADDRESS = ['billing.street1', 'billing.city', 'billing.postcode', 'billing.country'] as const;
/** What an invoice or instalment provider's credit check runs on. */
const CREDIT_CHECK = [...NAMES, 'customer.email', ...BILLING_ADDRESS] as const;
/** Invoices list the order lines: at least one item with its name, quantity and price. */
const FIRST_CART_ITEM = ['cart.items[0].name', 'cart.items[0].quantity', 'cart.items[0].price'] as const;

function brand(
  brandKey: string,
  name: string,
  methodCode: AsynchronousMethodCode,
  redirectMethod: 'GET' | 'POST',
  required: readonly string[] = [],
): AsynchronousBrand {
  return Object.freeze({ brand: brandKey, name, methodCode, required: Object.freeze([...required]), redirectMethod });
}

export const ASYNCHRONOUS_BRANDS: readonly AsynchronousBrand[] = Object.freeze([
  // Wallet logins (VA): the redirect is a plain link, so GET.
  brand('PAYPAL', 'PayPal', 'VA', 'GET'),
  brand('ALIPAY', 'Alipay', 'VA', 'GET'),
  brand('MONEYBOOKERS', 'Skrill', 'VA', 'GET'),
  brand('YANDEX', 'YooMoney', 'VA', 'GET'),
  // TrustPay's account product, as its _VA suffix says; clients send the shopper's names.
  brand('TRUSTPAY_VA', 'TrustPay', 'VA', 'POST', NAMES),
  // Pay by phone bill: the operator account is the virtual account; the country picks the operators.
  brand('DAOPAY', 'DaoPay', 'VA', 'GET', ['billing.country']),
  // Online transfers (OT): bank pages take the order by form post.
  brand('SOFORTUEBERWEISUNG', 'Sofort', 'OT', 'POST', BANK_COUNTRY),
  brand('GIROPAY', 'giropay', 'OT', 'POST', BANK_COUNTRY),
  brand('IDEAL', 'iDEAL', 'OT', 'POST', BANK_COUNTRY),
  brand('EPS', 'eps Online-Überweisung', 'OT', 'POST', BANK_COUNTRY),
  brand('POLI', 'POLi', 'OT', 'POST', BANK_COUNTRY),
  brand('PAYTRAIL', 'Paytrail', 'OT', 'POST', BANK_COUNTRY),
  // Trustly identifies the shopper by the merchant's customer id, names and country (its deposit call needs all four).
  brand('TRUSTLY', 'Trustly', 'OT', 'POST', ['customer.merchantCustomerId', ...NAMES, 'billing.country']),
  // Przelewy24 sends its confirmation to the shopper's e-mail address (with it, the names: customerNamesRequired).
  brand('PRZELEWY', 'Przelewy24', 'OT', 'POST', [...NAMES, 'customer.email']),
  // UnionPay's online payment: the shopper approves on UnionPay's page with a bank account; sent without card data.
  brand('CHINAUNIONPAY', 'UnionPay Online', 'OT', 'GET'),
  // Prepayment (PP): the shopper pays first, by transfer, boleto slip or prepaid voucher.
  brand('PREPAYMENT', 'Prepayment', 'PP', 'GET'),
  brand('BOLETO', 'Boleto Bancário', 'PP', 'POST', [...NAMES, ...BILLING_ADDRESS, 'billing.state']),
  brand('PAYSAFECARD', 'paysafecard', 'PP', 'GET'),
  brand('UKASH', 'Ukash', 'PP', 'GET'),
  // Invoices and instalments (IV): the provider pays now, the shopper later.
  brand('KLARNA_INVOICE', 'Klarna Invoice', 'IV', 'POST', [...NAMES, 'billing.country', ...FIRST_CART_ITEM]),
  brand('KLARNA_INSTALLMENTS', 'Klarna Installments', 'IV', 'POST', [...NAMES, 'billing.country', ...FIRST_CART_ITEM]),
  brand('PAYOLUTION_INVOICE', 'Payolution Invoice', 'IV', 'POST', CREDIT_CHECK),
  brand('PAYOLUTION_INS', 'Payolution Installment', 'IV', 'POST', CREDIT_CHECK),
  // Payolution's ELV is a direct debit the provider runs after the same credit check.
  brand('PAYOLUTION_ELV', 'Payolution Direct Debit', 'DD', 'POST', CREDIT_CHECK),
  // PostFinance Card: a Swiss debit card, approved on PostFinance's page.
  brand('PF_KARTE_DIRECT', 'PostFinance Card', 'DC', 'POST'),
]);

const BY_BRAND: ReadonlyMap<string, AsynchronousBrand> = new Map(ASYNCHRONOUS_BRANDS.map((entry) => [entry.brand, entry]));

/** The asynchronous brand of that exact paymentBrand value (brands are upper case), or undefined. */
export function asynchronousBrand(brandKey: string): AsynchronousBrand | undefined {
  return BY_BRAND.get(brandKey);
}
