import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { InvalidInputError } from '../../../domain/errors.js';
import type { EventsService } from '../../../services/events/index.js';
import type { ShopsService } from '../../../services/shops.js';
import { shopFor } from '../../plugins/admin-auth.js';

/** `GET /admin/v1/shops/{handle}/events`: stored events, newest first, for inspection. */
export function adminEventRoutes(app: FastifyInstance, deps: { shops: ShopsService; events: EventsService }): void {
  app.get('/shops/:handle/events', {
    schema: {
      summary: 'Stored events, newest first',
      tags: ['admin: events'],
      params: Type.Object({ handle: Type.String() }),
      querystring: Type.Object({ uuid: Type.Optional(Type.String()), shop_customer_id: Type.Optional(Type.String()), limit: Type.Optional(Type.String({ description: '1-100000, default 100' })) }),
    },
  }, async (request) => {
    const shop = await shopFor(request, deps.shops, (request.params as { handle: string }).handle);
    const q = request.query as { uuid?: string; shop_customer_id?: string; limit?: string };
    const limit = q.limit === undefined || q.limit === '' ? 100 : Number(q.limit);
    if (!/^\d{1,6}$/.test(q.limit ?? '100') || limit < 1 || limit > 100_000) throw new InvalidInputError('limit', 'Parameter limit must be a whole number from 1 to 100000.');
    if (q.shop_customer_id !== undefined && !/^\d{1,16}$/.test(q.shop_customer_id)) throw new InvalidInputError('shop_customer_id', 'Parameter shop_customer_id must be a positive integer id.');
    const data = await deps.events.list(shop.id, {
      limit,
      ...(q.uuid ? { uuid: q.uuid.toLowerCase() } : {}),
      ...(q.shop_customer_id ? { customerId: Number(q.shop_customer_id) } : {}),
    });
    return { data: data.map((e) => ({ ...e, created_at: new Date(e.created_at).toISOString() })) };
  });
}
