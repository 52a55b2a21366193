import type { FastifyRequest } from 'fastify';
import type { Actor } from '../domain/access/actor.js';

/** Who acts through the admin API: the holder of the admin token, from the request's address. */
export function adminActor(request: FastifyRequest): Actor {
  return { kind: 'admin-api', address: request.ip };
}
