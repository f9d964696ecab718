import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

/** One registered route with the parameter names its schema declares. */
export interface RouteEntry {
  method: string;
  url: string;
  query: string[];
  params: string[];
  headers: string[];
  /** Declares a body schema (admin documents) or reads its parameters from any body (storefront POSTs). */
  body: boolean;
}

export type RouteGroup = 'public' | 'admin' | 'webhooks' | 'pages';

/**
 * Registered routes no sweep sends hostile input to, each with its reason. Everything else is
 * swept: a new route joins a sweep by its prefix, or fails the coverage test until it does.
 */
export const EXCLUDED: { test: (route: RouteEntry) => boolean; why: string }[] = [
  // HEAD runs the GET handler without a body; the GET twin is swept.
  { test: (r) => r.method === 'HEAD', why: 'HEAD twin of a swept GET' },
  // Static files of the API docs and the console, served by @fastify/static from the build.
  { test: (r) => r.url === '/docs' || r.url.startsWith('/docs/'), why: 'static API docs' },
  { test: (r) => r.url === '/console' || r.url.startsWith('/console/'), why: 'static console files' },
];

/** Which sweep covers a route (null: none does). */
export function groupOf(route: RouteEntry): RouteGroup | null {
  const { url } = route;
  if (url.startsWith('/admin/v1')) return 'admin';
  if (url.startsWith('/webhooks/')) return 'webhooks';
  if (url === '/billing/reactivate') return 'pages';
  if (
    url.startsWith('/api/v1') ||
    url.startsWith('/api/v2') ||
    ['/widget.js', '/widget-demo', '/healthz', '/readyz', '/metrics', '/demo/images/:name', '*'].includes(url)
  )
    return 'public';
  return null;
}

const namesOf = (schema: unknown): string[] => {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties ? Object.keys(properties) : [];
};

const asArray = <T>(hook: T | T[] | undefined): T[] => (hook === undefined ? [] : Array.isArray(hook) ? hook : [hook]);

/**
 * Records the route table as the app builds it, and the server time of every request: from the
 * moment Fastify routes it (before auth, body parsing and validation) to its response being sent.
 * Requests are matched by their `x-request-id`.
 */
export function routeRecorder() {
  const routes: RouteEntry[] = [];
  const serverMs = new Map<string, number>();
  const onResponse = async (request: FastifyRequest, reply: FastifyReply) => {
    serverMs.set(request.id, reply.elapsedTime);
  };
  const onRoute = (route: RouteOptions) => {
    const schema = route.schema ?? {};
    for (const method of asArray(route.method)) {
      routes.push({
        method,
        url: route.url,
        query: namesOf(schema.querystring),
        params: namesOf(schema.params),
        headers: namesOf(schema.headers),
        body: schema.body !== undefined || route.config?.paramsInBody === true,
      });
    }
    route.onResponse = [...asArray(route.onResponse), onResponse] as RouteOptions['onResponse'];
  };
  /**
   * The server time of a request, once its response hook has run; undefined for a request no
   * route took (a 404 of the router, a path parameter over its length limit).
   */
  const timeOf = async (requestId: string): Promise<number | undefined> => {
    for (let i = 0; i < 50 && !serverMs.has(requestId); i++) await new Promise((resolve) => setImmediate(resolve));
    const ms = serverMs.get(requestId);
    serverMs.delete(requestId);
    return ms;
  };
  /** For `beforeRoutes`: sees every route the app adds after it. */
  const install = (app: FastifyInstance) => {
    app.addHook('onRoute', onRoute);
  };
  return { routes, install, timeOf };
}

export type RouteRecorder = ReturnType<typeof routeRecorder>;

export const routeKey = (route: Pick<RouteEntry, 'method' | 'url'>): string => `${route.method} ${route.url}`;
