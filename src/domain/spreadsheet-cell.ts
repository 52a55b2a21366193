/**
 * A CSV cell that a spreadsheet will not run: text starting with = + - @ (or a tab or carriage
 * return before them) is read as a formula by Excel and LibreOffice (CSV injection), so it gets a
 * leading apostrophe, which spreadsheets show as text. Finance people open these exports.
 */
export function spreadsheetSafe(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}
