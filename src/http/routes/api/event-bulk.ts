import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { bulkEventParams, MAX_BULK_EVENTS, readBulkEvents } from '../../../domain/params/bulk-event.js';
import { keyParam } from '../../../domain/params/common.js';
import { params } from '../../../domain/params/param.js';
import type { BulkEventsService } from '../../../services/events/bulk.js';
import { bodyValidatedByService, type ParamsTypeProvider } from '../../plugins/params.js';
import { Errors } from '../../schemas/errors.js';

const BulkQuery = params({ ...keyParam });

/** `POST /api/v2/analytics/event/bulk`: the platform widget's batched events (docs/api.md, "Bulk events"). */
export function eventBulkRoute(app: FastifyInstance, bulk: BulkEventsService): void {
  app.withTypeProvider<ParamsTypeProvider>().post(
    '/analytics/event/bulk',
    {
      // Views need no catalog (handles are resolved when read); the service loads it for product ids only.
      config: { auth: 'public', readsCatalog: false },
      ...bodyValidatedByService,
      schema: {
        summary: `Log up to ${MAX_BULK_EVENTS} storefront events at once; answered only once they are stored`,
        description:
          'The public key in the X-Rebuy-User-Token header (or key in ' +
          'the query string); the body a JSON array of events ' +
          '{subject, verb, noun, uuid, shopify_customer_id, shopify_product_id, shopify_variant_id, ' +
          'defined_noun_id, widget_id, event_time}.',
        tags: ['events'],
        querystring: BulkQuery,
        body: Type.Array(Type.Object(bulkEventParams.properties, { additionalProperties: true }), {
          maxItems: MAX_BULK_EVENTS,
        }),
        response: {
          200: Type.Object({ data: Type.Literal('Received'), accepted: Type.Integer({ minimum: 0 }) }),
          ...Errors,
        },
      },
    },
    async (request, reply) => {
      const accepted = await bulk.ingest(request.apiKey!.shopId, readBulkEvents(request.body), Date.now());
      return reply.send({ data: 'Received', accepted });
    },
  );
}
