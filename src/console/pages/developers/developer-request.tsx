import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ComponentChildren, VNode } from 'preact';
import { visibilityOf } from '../../../domain/access/actor.js';
import type { DeveloperActor } from '../../../operations/developers/developer-scope.js';
import { GatewayError } from '../../../results/gateway-error.js';
import { consoleActor } from '../../console-actor.js';
import type { ConsoleUser } from '../../console-user.js';
import { sendPage } from '../../render.js';
import { Layout } from '../layout.js';

/** What every developers' page needs from its request. */
export interface PageFrame {
  readonly user: ConsoleUser;
  readonly system: 'test' | 'live';
  readonly path: string;
  readonly csrfToken: string;
}

/** The session's CSRF token (set by the session hook), for the page's forms. */
export function csrfTokenOf(request: FastifyRequest): string {
  return request.consoleCsrfToken;
}

export function frameOf(request: FastifyRequest, path: string): PageFrame {
  return { user: request.consoleUser!, system: request.server.gateway.config.system, path, csrfToken: csrfTokenOf(request) };
}

/** The signed-in person as the audit log records them, and what they may see. */
export function developerActorOf(request: FastifyRequest): DeveloperActor {
  return { actor: consoleActor(request), visibility: visibilityOf(request.consoleUser!) };
}

/** A field of a posted form or of the query string ('' when absent; the first when repeated). */
export function fieldOf(source: unknown, name: string): string {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

/** A page that shows a secret once: never cached, never kept in the browser's history cache. */
export function sendSecretPage(reply: FastifyReply, page: VNode): FastifyReply {
  return sendPage(reply.header('cache-control', 'no-store'), page);
}

export function DeveloperLayout({ frame, title, children }: { frame: PageFrame; title: string; children: ComponentChildren }) {
  return <Layout title={title} user={frame.user} system={frame.system} path={frame.path} csrfToken={frame.csrfToken}>{children}</Layout>;
}

/** The hidden fields every change carries: the CSRF token, and the operator's picked merchant. */
export function FormBasics({ csrfToken, merchantId }: { csrfToken: string; merchantId?: string | undefined }) {
  return (
    <>
      <input type="hidden" name="_csrf" value={csrfToken} />
      {merchantId ? <input type="hidden" name="merchant" value={merchantId} /> : null}
    </>
  );
}

/**
 * A refused change or an id the person may not see: the answer's status (404 for anything outside
 * their merchant, as for an unknown id) and the reasons, field by field. Anything else is a bug.
 */
export function sendRefusal(request: FastifyRequest, reply: FastifyReply, error: unknown, back: { href: string; label: string }): FastifyReply {
  if (!(error instanceof GatewayError)) throw error;
  const frame = frameOf(request, back.href);
  const notFound = error.httpStatus === 404;
  const page = (
    <DeveloperLayout frame={frame} title={notFound ? 'Not found' : 'Not done'}>
      <div class="notice" role="alert">
        {notFound ? <p>There is nothing with this id that you may see.</p> : <p>The change was refused ({error.code}).</p>}
        {error.parameterErrors && !notFound ? (
          <ul>{error.parameterErrors.map((p) => <li key={p.name}><strong>{p.name}</strong>: {p.message}</li>)}</ul>
        ) : null}
      </div>
      <p><a href={back.href}>{back.label}</a></p>
    </DeveloperLayout>
  );
  return sendPage(reply, page, error.httpStatus);
}

export function formatTime(at: Date | null | undefined): string {
  return at ? at.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC') : '—';
}

/** A table: on a narrow screen each row becomes a card (labels from data-label); a named region the keyboard can scroll. */
export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return <div class="table-wrap dev-stack" role="region" aria-label={label} tabIndex={0}>{children}</div>;
}
