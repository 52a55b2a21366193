/** Secret values used in tests, so that a search of logs, responses and tables can look for them. */
export const SECRET_VALUES = {
  cardNumber: '4200000000000000',
  cvv: '987',
  iban: 'DE23100000001234567890',
  bankAccountNumber: '1234567890',
  tokenAccountNumber: '4111111111111111111',
  password: 'hunter2-very-secret',
} as const;

/** A full payment body with every kind of secret field. */
export function paymentBodyWithSecrets(entityId: string): Record<string, string> {
  return {
    entityId,
    amount: '92.00',
    currency: 'EUR',
    paymentType: 'DB',
    paymentBrand: 'VISA',
    'card.number': SECRET_VALUES.cardNumber,
    'card.holder': 'Jane Jones',
    'card.expiryMonth': '05',
    'card.expiryYear': '2034',
    'card.cvv': SECRET_VALUES.cvv,
    'bankAccount.iban': SECRET_VALUES.iban,
    'bankAccount.number': SECRET_VALUES.bankAccountNumber,
    'tokenAccount.number': SECRET_VALUES.tokenAccountNumber,
    'customParameters[password]': SECRET_VALUES.password,
  };
}

/** Every place a secret could hide in text: as sent, and with its digits spaced or dashed. */
export function findSecrets(text: string): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(SECRET_VALUES)) {
    if (name === 'cvv') {
      if (new RegExp(`["=:]${value}["&,}]`).test(text)) found.push(name);
    } else if (text.includes(value)) {
      found.push(name);
    }
  }
  return found;
}
