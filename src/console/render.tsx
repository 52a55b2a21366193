import type { FastifyReply } from 'fastify';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/**
 * Sends a page: Preact components rendered to a string on the server. Preact escapes every text
 * and attribute it renders, so a value from the database (a holder's name, a merchant's
 * reference) can never become markup; nothing here uses dangerouslySetInnerHTML.
 */
export function sendPage(reply: FastifyReply, page: VNode, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(`<!doctype html>${renderToString(page)}`);
}
