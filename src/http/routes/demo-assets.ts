import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../domain/errors.js';
import { Errors, nonJson } from '../schemas/errors.js';

/** Placeholder product images for the demo shop, drawn here so the demo needs no network. */
export function demoAssetRoutes(app: FastifyInstance): void {
  app.get(
    '/demo/images/:name',
    { schema: { hide: true, response: { 200: nonJson('image/svg+xml', 'a placeholder image'), ...Errors } } },
    async (request, reply) => {
      const { name } = request.params as { name: string };
      const match = /^([\w-]{1,80})\.svg$/.exec(name);
      if (!match) return reply.status(404).send(errorBody('not_found', 'Image not found.'));
      const hue = (createHash('sha1').update(match[1]!).digest()[0]! * 360) / 256;
      const svg =
        `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">` +
        `<rect width="800" height="800" fill="hsl(${hue.toFixed(0)},45%,82%)"/>` +
        `<circle cx="400" cy="360" r="170" fill="hsl(${hue.toFixed(0)},40%,62%)"/>` +
        `<rect x="230" y="560" width="340" height="40" rx="20" fill="hsl(${hue.toFixed(0)},35%,48%)"/></svg>`;
      return reply.header('content-type', 'image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
    },
  );
}
