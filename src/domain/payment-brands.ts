/** Placeholder until the brand table lands (issue 15, part 1). */
export interface AsynchronousBrand {
  readonly brand: string;
  readonly name: string;
  readonly methodCode: 'OT' | 'VA' | 'IV' | 'PP' | 'ET' | 'UA' | 'NT' | 'DC' | 'OD' | 'RM' | 'CT';
  readonly required: readonly string[];
  readonly redirectMethod: 'GET' | 'POST';
}

export const ASYNCHRONOUS_BRANDS: readonly AsynchronousBrand[] = [
  { brand: 'PAYPAL', name: 'PayPal', methodCode: 'VA', required: [], redirectMethod: 'GET' },
  { brand: 'SOFORTUEBERWEISUNG', name: 'Sofort', methodCode: 'OT', required: ['bankAccount.country'], redirectMethod: 'GET' },
];

const BY_BRAND = new Map(ASYNCHRONOUS_BRANDS.map((entry) => [entry.brand, entry]));

export function asynchronousBrand(brand: string): AsynchronousBrand | undefined {
  return BY_BRAND.get(brand);
}
