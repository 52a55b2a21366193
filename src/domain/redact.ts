/**
 * Last line of defence for free text that may carry a card number (paths, query strings,
 * log messages): any run of 12 to 19 digits, optionally split by spaces or dashes, is masked.
 */
const PAN_LIKE = /\d(?:[ -]?\d){11,18}/g;

export function maskPanLikeDigits(text: string): string {
  return text.replace(PAN_LIKE, (match) => {
    const digits = match.replace(/[ -]/g, '');
    return `${digits.slice(0, 6)}${'*'.repeat(Math.max(0, digits.length - 10))}${digits.slice(-4)}`;
  });
}
