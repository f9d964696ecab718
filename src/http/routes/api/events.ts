import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eventParams, type EventParams } from '../../../domain/params/event.js';
import { eventOf } from '../../../services/events/params.js';
import type { EventsService } from '../../../services/events/index.js';
import type { ParamsTypeProvider } from '../../plugins/params.js';
import { Errors } from '../../schemas/errors.js';

/** The acknowledgement, as bytes made once: the intake's answer never changes. */
const RECEIVED = Buffer.from('{"data":"Received"}');

/** The event intake (deprecated but served): answered only once the event is stored (docs/api.md, "Events"). */
export function eventRoutes(app: FastifyInstance, events: EventsService): void {
  const schema = {
    summary: 'Log a product view, add or removal (deprecated); answered only once the event is stored',
    description:
      'Parameters in the query string; fields of a JSON, form-encoded, ' +
      'text/plain (JSON) or multipart body are read under them.',
    tags: ['events'],
    deprecated: true,
    querystring: eventParams,
    response: { 200: Type.Object({ data: Type.Literal('Received') }), ...Errors },
  };
  // The intake never needs the shop's catalog in memory: handles are resolved when read.
  const config = { auth: 'public', paramsInBody: true, readsCatalog: false } as const;
  const api = app.withTypeProvider<ParamsTypeProvider>();
  const handler = async (request: FastifyRequest<{ Querystring: EventParams }>, reply: FastifyReply) => {
    await events.ingest(request.apiKey!.shopId, eventOf(request.query, Date.now()));
    return reply.header('content-type', 'application/json; charset=utf-8').send(RECEIVED);
  };
  api.post('/analytics/event', { config, schema }, handler);
  // Headless storefronts send the same event as a GET (an image beacon, a fetch without a body).
  api.get(
    '/analytics/event',
    { config, schema: { ...schema, summary: 'The event intake as a GET (the same as the POST)' } },
    handler,
  );
}
