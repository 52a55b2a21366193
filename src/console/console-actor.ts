import type { FastifyRequest } from 'fastify';
import type { Actor } from '../domain/access/actor.js';
import type { ConsoleUser } from './console-user.js';

/** The audit log's actor for a change made by the signed-in person of this request. */
export function consoleActor(request: FastifyRequest, user: ConsoleUser = request.consoleUser!): Actor {
  return { kind: 'user', userId: user.id, email: user.email, role: user.role, merchantId: user.merchantId, address: request.ip };
}
