import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { Errors } from '../schemas/errors.js';
import { documentRoute, SECURITY_SCHEMES } from './openapi-routes.js';

/** OpenAPI generated from the route schemas, served as JSON and browsable at /docs. */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Rebound API',
        version: '1.0.0',
        description:
          'Product recommendations and subscription reactivation for online shops. Public endpoints take a key ' +
          '(`key` query parameter or `X-Api-Key` header); admin endpoints take `Authorization: Bearer <token>`.',
      },
      servers: [{ url: publicUrl }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: documentRoute,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  // staticCSP: the docs page gets a Content-Security-Policy with hashes for its own scripts and styles.
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  const OpenApiDocument = Type.Object(
    { openapi: Type.String(), info: Type.Object({}, { additionalProperties: true }) },
    { additionalProperties: true },
  );
  // The document is fixed once the routes are: built and serialized at start-up (50–100 ms), then sent as those bytes.
  let documentBytes: Buffer | undefined;
  app.addHook('onReady', async () => {
    documentBytes = Buffer.from(JSON.stringify(app.swagger()));
  });
  app.get(
    '/api/v1/openapi.json',
    { schema: { hide: true, response: { 200: OpenApiDocument, ...Errors } } },
    async (_request, reply) => {
      documentBytes ??= Buffer.from(JSON.stringify(app.swagger()));
      return reply.type('application/json; charset=utf-8').send(documentBytes);
    },
  );
}
