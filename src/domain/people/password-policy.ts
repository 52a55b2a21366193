/**
 * What a console password must be (NIST SP 800-63B): long enough, not absurdly long (argon2 hashes
 * it whatever its length, but a megabyte is an attack), not the e-mail address, not one character
 * repeated. No rules of composition: they make passwords harder to remember, not to guess.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export function passwordProblem(password: string, email: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters long`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters long`;
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return 'must not be your e-mail address';
  if (new Set(password).size === 1) return 'must not repeat one character';
  return undefined;
}
