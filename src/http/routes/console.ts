import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../domain/errors.js';
import { webBuildDir } from '../web-build.js';
import { InlineErrors, nonJson } from '../schemas/errors.js';

/** The console calls only this server; product images may come from the shop's CDN. */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: http: data:; " +
  "connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; " +
  "object-src 'none'";

/**
 * The merchant console (console/, built by `npm run build:web`) at /console/. It routes by URL
 * hash, so the server only ever serves index.html and the hashed assets next to it.
 */
export async function consoleRoutes(app: FastifyInstance, root = webBuildDir('console')): Promise<void> {
  if (!existsSync(join(root, 'index.html'))) {
    // The router ignores trailing slashes, so this also answers /console.
    for (const path of ['/console/', '/console/*']) {
      app.get(path, { schema: { hide: true, response: InlineErrors } }, async (_request, reply) =>
        reply
          .status(503)
          .send(
            errorBody(
              'not_built',
              'The console has not been built. Run npm run build (npm ci and npm start do it for you).',
            ),
          ),
      );
    }
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/console/',
    index: 'index.html',
    wildcard: true,
    cacheControl: false, // ours, below: the plugin's default would overwrite it with max-age=0
    preCompressed: true, // the build writes .br and .gz next to each file: compressed once, never per request
    // Assets carry a content hash in their names; index.html must always be fetched afresh.
    setHeaders(res, path) {
      res.setHeader('content-security-policy', CONSOLE_CSP);
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // The wildcard does not cover the folder itself; the router ignores the trailing slash, so this serves /console too.
  app.get(
    '/console/',
    { schema: { hide: true, response: { 200: nonJson('text/html', 'the console'), ...InlineErrors } } },
    async (_request, reply) => reply.sendFile('index.html'),
  );
}
