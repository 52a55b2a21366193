/**
 * The IBAN's own check before sending (ISO 13616: country, check digits, mod 97). The gateway
 * checks each country's length and format as well (ibantools, src/domain/bank.ts); that library
 * would be 17 KB of the widget's 60, for a check the server's answer repeats at the field.
 */

export function normalizeIban(input: string): string {
  return input.replace(/[\s-]/g, '').toUpperCase();
}

export function isPlausibleIban(input: string): boolean {
  const iban = normalizeIban(input);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const value = character >= 'A' ? character.charCodeAt(0) - 55 : Number(character);
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder === 1;
}
