import { Type, type TObject } from '@sinclair/typebox';
import type { FastifySchema, RouteOptions } from 'fastify';

type Requirement = Record<string, string[]>;
/** A public or private key, in the query string or a header (docs/api.md, "Keys"). */
const KEYED: Requirement[] = [{ apiKey: [] }, { apiKeyHeader: [] }];
/** The platform widget's batched events also carry the key as its user token. */
const BULK: Requirement[] = [...KEYED, { userToken: [] }];

/** The security schemes the routes name: each way a key or the admin token may be sent. */
export const SECURITY_SCHEMES = {
  apiKey: { type: 'apiKey', in: 'query', name: 'key' },
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
  userToken: { type: 'apiKey', in: 'header', name: 'X-Rebuy-User-Token' },
  adminToken: { type: 'http', scheme: 'bearer' },
} as const;

/** What a route's body may be when its parameters may come in one (docs/api.md, "Request bodies"). */
const PARAMS_BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

/** The query parameters as body fields: the same names and rules, none required, as the query may hold them. */
function paramsAsBody(query: TObject): TObject {
  return Type.Object(query.properties, {
    description: 'Any of the query parameters, as fields of the body; a field given in both places: the query wins.',
    additionalProperties: true,
  });
}

/**
 * How a route documents itself beyond its schema, for @fastify/swagger's `transform`: who may call it
 * (its `security`, from its `auth` config), and the body its parameters may come in (`paramsInBody`).
 * Only the document changes: requests are still read by the route's own schema.
 */
export function documentRoute({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }): {
  schema: FastifySchema;
  url: string;
} {
  const config = (route.config ?? {}) as { auth?: string; paramsInBody?: boolean };
  const documented: FastifySchema = { ...schema };
  if (url.startsWith('/admin/')) documented.security = [{ adminToken: [] }];
  else if (config.auth === 'public' || config.auth === 'private')
    documented.security = url.endsWith('/event/bulk') ? BULK : KEYED;
  else if (config.auth === 'none') documented.security = [];
  // The GET twin of a POST (an image beacon) takes no body: OpenAPI gives a GET none.
  if (config.paramsInBody && route.method !== 'GET' && schema.querystring && !schema.body) {
    documented.body = paramsAsBody(schema.querystring as TObject);
    documented.consumes = PARAMS_BODY_TYPES;
  }
  return { schema: documented, url };
}
