import type { FastifyRequest } from 'fastify';

/** A field of a posted console form as one string ('' when absent; the first when repeated). */
export function formField(request: FastifyRequest, name: string): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

/** A `next` address to go to after signing in: a console path only, never another site. */
export function consoleNext(value: unknown): string {
  return typeof value === 'string' && /^\/console(?:[/?#]|$)/.test(value) && !value.includes('\\') ? value : '/console';
}
