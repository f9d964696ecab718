import { Readable, Transform } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sharedSchemas } from '../../src/http/schemas/product.js';

/**
 * Checks every answer of an app against the response schema its route declares: objects before
 * serialization (so a property a serializer would drop is caught), pre-assembled JSON bytes as
 * sent, other content types by their declared type. Objects are closed unless the schema says
 * otherwise. It records which routes and statuses were exercised.
 */

/**
 * Routes whose answers are not ours to declare: plugins register them. (Fastify's HEAD routes,
 * added beside every GET, answer the GET's headers without a body: they are left out by method.)
 */
export const EXCLUDED = new Set([
  // @fastify/swagger-ui's own pages and assets (the interactive docs) and its copies of the OpenAPI document.
  'GET /docs',
  'GET /docs/static/index.html',
  'GET /docs/static/swagger-initializer.js',
  'GET /docs/static/*',
  'GET /docs/json',
  'GET /docs/yaml',
  // @fastify/cors answers preflight requests itself (204, no body).
  'OPTIONS /api/v1*',
  'OPTIONS /api/v2*',
  // @fastify/static serves the built console's files (the test
  // setup builds it); unbuilt, the route is ours: a 503 error body.
  'GET /console/*',
]);

/** Which part of the app a route belongs to: each family must show at least one 4xx answer here. */
export function familyOf(route: string): string {
  const path = route.split(' ')[1]!;
  if (path.startsWith('/api/v1/products/')) return 'lists';
  if (path.startsWith('/api/v1/billing/')) return 'public billing';
  if (path.startsWith('/api/v1/analytics/')) return 'events and tracking';
  if (path.startsWith('/api/v1/custom/')) return 'custom';
  // Admin routes by what they act on: /admin/v1/shops/:handle/<part> or /admin/v1/<part>.
  const admin = /^\/admin\/v1\/(?:shops\/:handle\/)?([^/]+)/.exec(path);
  if (admin) return `admin ${admin[1]}`;
  if (path.startsWith('/webhooks/')) return 'webhooks';
  if (path.startsWith('/billing/')) return 'billing pages';
  if (path.startsWith('/widget') || path.startsWith('/demo/')) return 'widget and demo';
  if (path.startsWith('/console')) return 'console';
  return 'operations';
}

interface Declared {
  /** Status (200, '4xx', 'default') → schema, or `{ content: { type: { schema } } }` for other content types. */
  response: Record<string, unknown> | undefined;
}

type Schema = Record<string, unknown>;

/** The schema as the check reads it: every object with properties closed unless it says otherwise. */
export function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Schema = {};
  for (const [name, value] of Object.entries(schema)) {
    copy[name] =
      name === 'properties' || name === 'patternProperties'
        ? Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, closed(v)]))
        : closed(value);
  }
  if (copy.type === 'object' && copy.properties && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy;
}

export class ResponseChecker {
  readonly routes = new Map<string, Declared>();
  readonly exercised = new Map<string, Set<number>>();
  readonly problems: string[] = [];
  private readonly ajv: Ajv;
  private readonly compiled = new Map<unknown, ValidateFunction>();
  private readonly checked = new WeakSet<FastifyRequest>();

  constructor() {
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(this.ajv);
    for (const schema of sharedSchemas) this.ajv.addSchema(closed(schema) as Schema);
  }

  install(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD') continue;
        this.routes.set(`${method} ${route.url}`, {
          response: (route.schema as { response?: Record<string, unknown> } | undefined)?.response,
        });
      }
    });
    app.addHook('preSerialization', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
      this.checked.add(request);
      this.check(request, reply, payload, 'object');
      done(null, payload);
    });
    app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
      if (this.checked.has(request)) return done(null, payload);
      // JSON written as a stream (a long listing, page by page) is checked once all of it has passed.
      if (
        payload instanceof Readable &&
        mediaType(reply) === 'application/json' &&
        !reply.hasHeader('content-encoding')
      )
        return done(null, this.checkedStream(request, reply, payload));
      this.checkSent(request, reply, payload);
      done(null, payload);
    });
    app.addHook('onResponse', (request, reply, done) => {
      const url = request.routeOptions.url;
      if (url !== undefined && request.method !== 'HEAD' && request.method !== 'OPTIONS') {
        const id = `${request.method} ${url}`;
        if (!this.exercised.has(id)) this.exercised.set(id, new Set());
        this.exercised.get(id)!.add(reply.statusCode);
      }
      done();
    });
  }

  private routeOf(request: FastifyRequest): string | null {
    const url = request.routeOptions.url;
    return url === undefined ? null : `${request.method === 'HEAD' ? 'GET' : request.method} ${url}`;
  }

  /** The declared schema for a status: exact, then its class (4xx), then default. */
  private declared(route: string, status: number): unknown {
    const response = this.routes.get(route)?.response;
    if (!response) return undefined;
    return response[String(status)] ?? response[`${String(status)[0]}xx`] ?? response.default;
  }

  private report(route: string, status: number, problem: string): void {
    this.problems.push(`${route} ${status}: ${problem}`);
  }

  private validate(route: string, status: number, schema: unknown, value: unknown): void {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(closed(schema) as Schema);
      this.compiled.set(schema, validate);
    }
    if (!validate(value)) this.report(route, status, JSON.stringify(validate.errors?.slice(0, 8)));
  }

  private check(request: FastifyRequest, reply: FastifyReply, payload: unknown, how: 'object' | 'bytes'): void {
    const route = this.routeOf(request);
    if (route === null || EXCLUDED.has(route)) return; // the not-found handler: checked by the caller of each 404 case
    const status = reply.statusCode;
    const schema = this.declared(route, status) as Schema | undefined;
    if (schema === undefined) {
      this.report(route, status, `no response schema declared (${how})`);
      return;
    }
    if (schema.content) {
      const media = mediaType(reply);
      const entry = (schema.content as Record<string, { schema: unknown }>)[media];
      if (!entry) {
        this.report(route, status, `answered ${media}, declared ${Object.keys(schema.content as object).join(', ')}`);
        return;
      }
      if (media.includes('json')) this.validate(route, status, entry.schema, payload);
      return;
    }
    this.validate(route, status, schema, payload);
  }

  /** The stream passed on unchanged; its bytes are checked as sent JSON when it ends. */
  private checkedStream(request: FastifyRequest, reply: FastifyReply, payload: Readable): Readable {
    const chunks: Buffer[] = [];
    const copy = new Transform({
      transform(chunk: Buffer | string, _encoding, next) {
        chunks.push(Buffer.from(chunk));
        next(null, chunk);
      },
      flush: (next) => {
        this.checkSent(request, reply, Buffer.concat(chunks));
        next();
      },
    });
    return payload.pipe(copy);
  }

  private checkSent(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    const route = this.routeOf(request);
    if (route === null || EXCLUDED.has(route)) return;
    const status = reply.statusCode;
    const empty =
      payload === undefined || payload === null || payload === '' || (Buffer.isBuffer(payload) && payload.length === 0);
    if (empty) {
      const schema = this.declared(route, status) as Schema | undefined;
      if (schema === undefined) {
        this.report(route, status, 'no response schema declared (empty body)');
        return;
      }
      if (schema.type !== 'null') this.report(route, status, 'answered no body, declared one');
      return;
    }
    const media = mediaType(reply);
    if (media === 'application/json' && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      const bytes =
        reply.getHeader('content-encoding') === 'gzip' ? gunzipSync(payload as Buffer) : Buffer.from(payload);
      let value: unknown;
      try {
        value = JSON.parse(bytes.toString('utf8'));
      } catch {
        this.report(route, status, 'answered application/json that does not parse');
        return;
      }
      this.check(request, reply, value, 'bytes');
      return;
    }
    const schema = this.declared(route, status) as Schema | undefined;
    if (schema === undefined) {
      this.report(route, status, `no response schema declared (${media})`);
      return;
    }
    if (!schema.content || !(schema.content as Record<string, unknown>)[media])
      this.report(route, status, `answered ${media}, which its schema does not declare`);
  }
}

function mediaType(reply: FastifyReply): string {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' ? type.split(';')[0]!.trim().toLowerCase() : '';
}
