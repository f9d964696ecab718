import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { readTrackBody, trackBody, trackParams } from '../../../domain/params/track.js';
import { InvalidInputError } from '../../../domain/errors.js';
import type { TrackingService } from '../../../services/tracking.js';
import { bodyValidatedByService, type ParamsTypeProvider } from '../../plugins/params.js';
import { Errors } from '../../schemas/errors.js';

/**
 * `POST /api/v1/analytics/track`: impressions, clicks and add-to-carts,
 * answered once stored (docs/attribution.md, "Tracking").
 */
export function trackRoutes(app: FastifyInstance, tracking: TrackingService): void {
  app.withTypeProvider<ParamsTypeProvider>().post(
    '/analytics/track',
    {
      config: { auth: 'public', paramsInBody: true },
      // The body is read in the handler, after the key, rate-limit and signature hooks, as the query string's event is.
      ...bodyValidatedByService,
      schema: {
        summary: 'Track impressions, clicks and add-to-carts of recommended products; answered only once stored',
        description:
          'One event in the query string, or up to 100 as a JSON body ' +
          '{"events": [{type, uuid, shop_customer_id, source, product_id, variant_id, at}]} ' +
          '(also as text/plain, what navigator.sendBeacon sends). ' +
          'Form-encoded and multipart fields are read under the query string.',
        tags: ['events'],
        querystring: trackParams,
        body: trackBody,
        response: {
          200: Type.Object({ data: Type.Literal('Received'), accepted: Type.Integer({ minimum: 1 }) }),
          ...Errors,
        },
      },
    },
    async (request, reply) => {
      const caller = { shopId: request.apiKey!.shopId, publicKey: request.apiKey!.kind === 'public' };
      const eventOf = tracking.eventOf(caller, Date.now());
      // The body's events when it has them, else the query string's one event; never both (one would be lost).
      const inBody = readTrackBody(request.body, eventOf);
      if (inBody && request.query.type !== null && request.query.type !== undefined)
        throw new InvalidInputError(
          'events',
          'An event in the query string and events in the body: send one event in the query string, or all in events.',
        );
      const events = inBody ?? [eventOf(request.query)];
      const accepted = await tracking.track(request.apiKey!.shopId, events);
      return reply.send({ data: 'Received', accepted });
    },
  );
}
