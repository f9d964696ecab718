import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { StoredEvent } from '../../../domain/events.js';
import { positiveId, wholeNumber } from '../../../domain/params/kinds.js';
import { params } from '../../../domain/params/param.js';
import { sessionId } from '../../../domain/params/text-kinds.js';
import type { EventsService } from '../../../services/events/index.js';
import { shopOf } from '../../plugins/request-shop.js';
import type { ParamsTypeProvider } from '../../plugins/params.js';
import { HandlePath } from '../../schemas/admin-params.js';
import { Errors } from '../../schemas/errors.js';
import { EventList } from '../../schemas/admin.js';

const EventsQuery = params({
  // Any session id the intake stores (the bulk intake takes ids that are not UUIDs), read as it reads them.
  uuid: sessionId("only this session's events"),
  shop_customer_id: positiveId("only this customer's events"),
  limit: wholeNumber('events, newest first', { min: 1, max: 100_000, fallback: 100 }),
});

/** `{"data": [...]}`, a page of events at a time, each as the schema's EventList shows it. */
async function* eventListJson(pages: AsyncIterable<StoredEvent[]>): AsyncGenerator<string> {
  yield '{"data":[';
  let first = true;
  for await (const page of pages) {
    const events = page.map((e) => JSON.stringify({ ...e, created_at: new Date(e.created_at).toISOString() }));
    yield (first ? '' : ',') + events.join(',');
    first = false;
  }
  yield ']}';
}

/** `GET /admin/v1/shops/{handle}/events`: stored events, newest first, for inspection. */
export function adminEventRoutes(app: FastifyInstance, deps: { events: EventsService }): void {
  app.withTypeProvider<ParamsTypeProvider>().get(
    '/shops/:handle/events',
    {
      schema: {
        summary: 'Stored events, newest first',
        tags: ['admin: events'],
        params: HandlePath,
        querystring: EventsQuery,
        response: { 200: EventList, ...Errors },
      },
    },
    async (request, reply) => {
      const shop = shopOf(request);
      const { limit, uuid: session, shop_customer_id: customerId } = request.query;
      const pages = deps.events.pages(shop.id, {
        limit,
        ...(session ? { uuid: session } : {}),
        ...(customerId ? { customerId } : {}),
      });
      // Written page by page as the client reads (the schema above documents it; a stream is not serialized).
      return reply.type('application/json; charset=utf-8').send(Readable.from(eventListJson(pages)));
    },
  );
}
