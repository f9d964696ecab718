import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, errorBody, UnavailableError } from '../../domain/errors.js';
import type { LinkIntent, ReactivationService } from '../../services/billing/reactivation.js';
import { PAGE_HEADERS, renderProviderErrorPage, renderReactivationPage } from '../pages/reactivation-page.js';
import { ErrorRef, nonJson, PageOrError } from '../schemas/errors.js';

/**
 * The link's query with a null prototype (names are the client's); a repeated parameter can never match the signature.
 */
function linkQuery(request: FastifyRequest): Record<string, string> {
  const query = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) {
    query[name] = typeof value === 'string' ? value : '\u0000';
  }
  return query;
}

/** Whether an Accept header takes an HTML page (no header takes anything). */
export function acceptsHtml(accept: string | undefined): boolean {
  if (!accept || accept.trim() === '') return true;
  return accept.split(',').some((entry) => {
    const [type = '', ...params] = entry.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false;
    return ['text/html', 'text/*', '*/*', 'application/xhtml+xml'].includes(type.trim());
  });
}

/** `GET` / `POST /billing/reactivate`: the one-click link customers open from an email. */
export function billingPageRoutes(app: FastifyInstance, reactivation: ReactivationService): void {
  // The page's form posts an empty urlencoded body: everything is in the signed query string.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) =>
    done(null, {}),
  );
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/billing/reactivate',
      schema: {
        hide: true,
        response: {
          200: nonJson('text/html', 'the reactivation page'),
          406: ErrorRef,
          '4xx': PageOrError,
          '5xx': PageOrError,
        },
      },
      handler: async (request, reply) => {
        // HEAD (link checkers, mail scanners) and clients that cannot show a page are never counted as opened.
        const intent: LinkIntent = request.method === 'POST' ? 'confirm' : request.method === 'HEAD' ? 'peek' : 'view';
        if (intent === 'view' && !acceptsHtml(request.headers.accept)) {
          return reply
            .status(406)
            .send(errorBody('not_acceptable', 'This link opens a web page: request it with Accept: text/html.'));
        }
        try {
          const { status, html } = renderReactivationPage(await reactivation.followLink(linkQuery(request), intent));
          return await reply.status(status).headers(PAGE_HEADERS).send(html);
        } catch (error) {
          // The customer sees a page, not JSON, when the billing provider fails.
          if (!(error instanceof AppError) || error.status < 500) throw error;
          if (error instanceof UnavailableError) void reply.header('retry-after', String(error.retryAfter));
          return reply.status(error.status).headers(PAGE_HEADERS).send(renderProviderErrorPage(error.status));
        }
      },
    });
  }
}
