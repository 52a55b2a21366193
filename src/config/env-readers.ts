/**
 * Readers of environment variables that collect every problem instead of stopping at the first,
 * so an operator sees all bad variables in one message.
 */
export type Env = Readonly<Record<string, string | undefined>>;

export function readOptional(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

export function readInteger(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = readOptional(env, name);
  if (raw === undefined) return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    problems.push(`${name}=${JSON.stringify(raw)} must be a whole number from ${min} to ${max}`);
    return fallback;
  }
  return Number(raw);
}

export function readBoolean(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = readOptional(env, name);
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  problems.push(`${name}=${JSON.stringify(raw)} must be true or false`);
  return fallback;
}

export function readEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T, problems: string[]): T {
  const raw = readOptional(env, name);
  if (raw === undefined) return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  problems.push(`${name}=${JSON.stringify(raw)} must be one of ${allowed.join(', ')}`);
  return fallback;
}

export function readUrl(env: Env, name: string, protocols: readonly string[], problems: string[]): string | undefined {
  const raw = readOptional(env, name);
  if (raw === undefined) return undefined;
  let protocol = '';
  try {
    protocol = new URL(raw).protocol;
  } catch {
    // reported below
  }
  if (!protocols.includes(protocol)) problems.push(`${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  return raw;
}
