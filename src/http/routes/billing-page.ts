import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReactivationService } from '../../services/billing/reactivation.js';
import { PAGE_HEADERS, renderReactivationPage } from '../pages/reactivation-page.js';

function linkQuery(request: FastifyRequest): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) {
    if (typeof value === 'string') query[name] = value;
    else query[name] = '\u0000'; // a repeated parameter can never match the signature
  }
  return query;
}

/** `GET` / `POST /billing/reactivate`: the one-click link customers open from an email. */
export function billingPageRoutes(app: FastifyInstance, reactivation: ReactivationService): void {
  // The page's form posts an empty urlencoded body: everything is in the signed query string.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/billing/reactivate',
      schema: { hide: true },
      handler: async (request, reply) => {
        const { status, html } = renderReactivationPage(await reactivation.followLink(linkQuery(request), method));
        return reply.status(status).headers(PAGE_HEADERS).send(html);
      },
    });
  }
}
