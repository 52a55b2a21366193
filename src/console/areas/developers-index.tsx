import type { FastifyInstance } from 'fastify';
import { mayPerform } from '../../domain/access/permissions.js';
import { DEVELOPER_PAGES, DevelopersIndexPage } from '../pages/developers/developers-index-page.js';
import { frameOf } from '../pages/developers/developer-request.js';
import { Layout } from '../pages/layout.js';
import { sendPage } from '../render.js';
import '../route-config.js';

/** /console/developers: links to the developers' pages the person's role may open (403 when none). */
export function registerDevelopersIndex(app: FastifyInstance): void {
  app.get('/console/developers', { config: { console: 'signed-in' } }, async (request, reply) => {
    const frame = frameOf(request, '/console/developers');
    if (!DEVELOPER_PAGES.some((page) => mayPerform(frame.user.role, page.action))) {
      const page = <Layout title="Not allowed" user={frame.user} system={frame.system} path={frame.path} csrfToken={frame.csrfToken}><p>Your role does not allow this. Ask an administrator of your account.</p></Layout>;
      return sendPage(reply, page, 403);
    }
    return sendPage(reply, <DevelopersIndexPage frame={frame} />);
  });
}
