import { controlCharacterProblem } from '../domain/control-characters.js';
import { maskPanLikeDigits } from '../domain/redact.js';
import { GatewayError } from '../results/gateway-error.js';

/** Longer values are cut in the error: it must stay small whatever the request sent. */
const SHOWN_VALUE_LENGTH = 256;

function invalid(name: string, value: string, message: string): GatewayError {
  // Masked before cut, so that a cut card number cannot escape the mask (docs/parameters.md).
  return new GatewayError('200.300.404', { parameterErrors: [{ name, value: maskPanLikeDigits(value).slice(0, SHOWN_VALUE_LENGTH), message }] });
}

/**
 * A single, non-empty field of the operator's API (form body, or query string on GET). No field
 * of it spans lines, and NUL cannot even be stored or compared by PostgreSQL, so control
 * characters are refused here, before any value reaches the database.
 */
export function adminField(source: unknown, name: string, required: boolean): string | undefined {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string' && value !== '') {
    const problem = controlCharacterProblem(value);
    if (problem !== undefined) throw invalid(name, value, problem);
    return value;
  }
  if (value === undefined && !required) return undefined;
  throw invalid(name, typeof value === 'string' ? value : '', required ? 'is required' : 'must be sent once');
}
