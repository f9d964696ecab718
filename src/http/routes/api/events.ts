import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { identityParams, parseEvent } from '../../../services/events/params.js';
import type { EventsService } from '../../../services/events/index.js';
import { listParams, type Query } from '../../../services/params.js';
import { sendJson } from '../../reply.js';
import { CommonQuery, KeyParam, limitParam, ListFilterQuery } from '../../schemas/common.js';
import { ProductListResponse } from '../../schemas/product.js';

const text = (description: string) => Type.Optional(Type.String({ description }));
const scalar = (description: string) => Type.Optional(Type.Union([Type.String(), Type.Number()], { description }));

const EventFields = {
  subject: 'subject of the event: user',
  verb: 'viewed, added or removed',
  noun: 'product',
  shop_product_handle: 'the product handle (required for product events)',
  uuid: 'client-made session UUID (this or shop_customer_id is required)',
  shop_customer_id: 'storefront customer id (this or uuid is required)',
  subject_email: 'email of the subject',
  theme_id: 'theme identifier',
};

const EventQuery = Type.Object({ ...KeyParam, ...Object.fromEntries(Object.entries(EventFields).map(([k, d]) => [k, text(d)])) });
const EventBody = Type.Object(Object.fromEntries(Object.entries(EventFields).map(([k, d]) => [k, scalar(d)])), { additionalProperties: true });

const ViewedQuery = Type.Object({
  ...KeyParam,
  uuid: text('session UUID whose views to return'),
  shop_customer_id: text('customer whose views to return'),
  ...CommonQuery,
  ...limitParam(5, 100),
  ...ListFilterQuery,
});

/** The event intake (seed §2, deprecated but served) and the viewed-products read-back. */
export function eventRoutes(app: FastifyInstance, events: EventsService): void {
  // navigator.sendBeacon posts text/plain: read it as JSON when it is JSON.
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(null, {});
    }
  });

  app.post('/analytics/event', {
    // Query and body are parsed by services/events/params.ts (numbers allowed in bodies, any body optional).
    validatorCompiler: () => () => true,
    // Events are stored as sent (handles resolved when read): the intake never needs the catalog.
    config: { auth: 'public', readsCatalog: false },
    schema: {
      summary: 'Log a product view, add or removal (deprecated); answered only once the event is stored',
      tags: ['events'],
      deprecated: true,
      querystring: EventQuery,
      body: EventBody,
      response: { 200: Type.Object({ data: Type.Literal('Received') }), '4xx': { $ref: 'Error#' }, 503: { $ref: 'Error#' } },
    },
  }, async (request, reply) => {
    const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body as Query : {};
    const query = { ...body, ...(request.query as Query) };
    await events.ingest(request.apiKey!.shopId, parseEvent(query, Date.now()));
    return reply.send({ data: 'Received' });
  });

  for (const path of ['/products/viewed', '/products/recently_viewed']) {
    app.get(path, {
      config: { auth: 'public' },
      schema: {
        summary: path.endsWith('recently_viewed') ? 'Alias of /products/viewed' : 'Products a session or customer viewed, most recent first, each once',
        tags: ['events'],
        querystring: ViewedQuery,
        response: { 200: ProductListResponse, '4xx': { $ref: 'Error#' } },
      },
    }, async (request, reply) => {
      const query = request.query as Query;
      const identity = identityParams(query);
      const options = listParams(query);
      const body = await events.viewedProducts(request.apiKey!.shopId, identity, options);
      return sendJson(reply, body, options.pretty);
    });
  }
}
