import { Type } from '@sinclair/typebox';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { Errors } from '../../schemas/errors.js';

interface Described {
  path: string;
  summary: string;
  parameters: { name: string; description: string }[];
}

/** `GET /api/v1/sources`: the list endpoints and their parameters, read from the route schemas. */
export function sourcesRoute(app: FastifyInstance): void {
  const sources: Described[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    // Fastify adds a HEAD route beside every GET: describe the GET only.
    if (route.method !== 'GET' || !(route.config as { listSource?: boolean } | undefined)?.listSource) return;
    const schema = route.schema as
      | { summary?: string; querystring?: { properties?: Record<string, { description?: string }> } }
      | undefined;
    sources.push({
      path: route.url.replace(/^\/api\/v1/, ''),
      summary: schema?.summary ?? '',
      parameters: Object.entries(schema?.querystring?.properties ?? {})
        .filter(([name]) => name !== 'key')
        .map(([name, p]) => ({ name, description: p.description ?? '' })),
    });
  });
  app.get(
    '/sources',
    {
      config: { auth: 'none' },
      schema: {
        summary: 'The list endpoints (usable as ruleset endpoint outputs) with their parameters',
        tags: ['products'],
        response: {
          200: Type.Object({
            data: Type.Array(
              Type.Object({
                path: Type.String(),
                summary: Type.String(),
                parameters: Type.Array(Type.Object({ name: Type.String(), description: Type.String() })),
              }),
            ),
          }),
          ...Errors,
        },
      },
    },
    async () => ({ data: [...sources].sort((a, b) => a.path.localeCompare(b.path)) }),
  );
}
