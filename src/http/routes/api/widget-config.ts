import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SharedAnswers } from '../../../cache/shared-answers.js';
import { answerKey } from '../../../cache/response-cache.js';
import { keyParam } from '../../../domain/params/common.js';
import { params } from '../../../domain/params/param.js';
import { positiveId } from '../../../domain/params/kinds.js';
import type { ListsService } from '../../../services/lists/index.js';
import type { WidgetsService } from '../../../services/widgets.js';
import type { ParamsTypeProvider } from '../../plugins/params.js';
import { catalogOf } from '../../plugins/request-shop.js';
import { Errors, NoContent } from '../../schemas/errors.js';
import { PublicWidgetAnswer } from '../../schemas/widgets.js';

const WidgetPath = params({ id: positiveId('the widget id', { required: true }) });
const WidgetQuery = params({ ...keyParam });

/** If-None-Match holds a list of tags, possibly weak (a CDN may weaken them), or `*`. */
function matches(header: string | undefined, etag: string): boolean {
  return !!header && header.split(',').some((tag) => ['*', etag].includes(tag.trim().replace(/^W\//, '')));
}

/**
 * `GET /api/v1/widgets/{id}` (docs/widget.md, "Widgets as data"): the design /widget.js renders.
 * Cached like an answer under the shop's data version, which every widget write moves, with an
 * ETag: a browser asks again on every page load (no-cache) and a repeat is a 304, so a saved change shows at once.
 */
export function widgetConfigRoute(
  app: FastifyInstance,
  deps: { widgets: WidgetsService; lists: ListsService; cache: SharedAnswers },
): void {
  app.withTypeProvider<ParamsTypeProvider>().get(
    '/widgets/:id',
    {
      config: { auth: 'public' },
      schema: {
        summary: "A widget's design and source, for /widget.js",
        tags: ['widgets'],
        params: WidgetPath,
        querystring: WidgetQuery,
        response: { 200: PublicWidgetAnswer, 304: NoContent, ...Errors },
      },
    },
    async (request, reply) => {
      const shopId = request.apiKey!.shopId;
      const id = request.params.id;
      const key = answerKey(shopId, deps.lists.version(catalogOf(request)), `/widgets/${id}`);
      let body = deps.cache.enabled ? (await deps.cache.get(key))?.body : undefined;
      if (!body) {
        body = Buffer.from(JSON.stringify({ widget: await deps.widgets.storefront(shopId, id) }));
        if (deps.cache.enabled) deps.cache.set(key, body);
      }
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      void reply.header('etag', etag).header('cache-control', 'no-cache');
      if (matches(request.headers['if-none-match'], etag)) return reply.status(304).send();
      return reply.header('content-type', 'application/json; charset=utf-8').send(body);
    },
  );
}
