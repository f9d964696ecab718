import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody } from '../../domain/errors.js';
import { createWidgetDemoService, type WidgetDemoService } from '../../services/widget-demo.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import type { KeyIndex } from '../../indexes/key-index.js';
import { params } from '../../domain/params/param.js';
import { readParams } from '../../domain/params/read.js';
import { text } from '../../domain/params/text-kinds.js';
import { webBuildDir } from '../web-build.js';
import { renderWidgetDemoHelp, renderWidgetDemoPage, WIDGET_DEMO_HEADERS } from '../pages/widget-demo-page.js';
import { InlineErrors, NoContent, nonJson } from '../schemas/errors.js';

/** The built widget (`npm run build:web`), found from the repository root so it works from src/ and dist/src/. */
export const WIDGET_FILE = join(webBuildDir('widget'), 'widget.js');

const KEY = /^[A-Za-z0-9_-]{8,128}$/;
const HANDLE = /^[^\s/?#]{1,255}$/;

/** The script's bytes, and gzip made once: storefronts load it on every page, so it is never compressed per request. */
interface Script {
  bytes: Buffer;
  gzip: Buffer;
  etag: string;
  gzipEtag: string;
}

/** The built script, read on first use and kept; a missing build is looked for again on the next request. */
function scriptLoader(file: string): () => Script | null {
  let script: Script | null = null;
  return () => {
    if (script) return script;
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      return null;
    }
    const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
    // Each encoding is its own representation, so each gets its own strong tag.
    script = { bytes, gzip: gzipSync(bytes, { level: 9 }), etag: `"${hash}"`, gzipEtag: `"${hash}-gz"` };
    return script;
  };
}

/** If-None-Match holds a list of tags, possibly weak (a CDN may weaken them), or `*`. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

const DemoQuery = params({
  key: text('a public API key', { max: 200 }),
  product: text('a product handle', { max: 255 }),
});

/**
 * The API's own parameter reader; the page answers in HTML, so a bad query reads as null here instead of a JSON 400.
 */
function demoQuery(request: FastifyRequest): { key: string | null; product: string | null } | null {
  try {
    return readParams(DemoQuery, request.query as Record<string, unknown>);
  } catch {
    return null;
  }
}

/** `GET /widget.js` (the storefront widget) and `GET /widget-demo` (a storefront-like page using it). */
export function widgetRoutes(
  app: FastifyInstance,
  deps: { keys: Pick<KeyIndex, 'lookupFresh'>; catalog: Pick<CatalogIndex, 'ensure'>; demo?: WidgetDemoService },
  options: { scriptFile?: string } = {},
): void {
  const load = scriptLoader(options.scriptFile ?? WIDGET_FILE);
  const demo = deps.demo ?? createWidgetDemoService(deps);

  app.get(
    '/widget.js',
    {
      schema: {
        hide: true,
        response: { 200: nonJson('text/javascript', 'the storefront widget'), 304: NoContent, ...InlineErrors },
      },
    },
    async (request, reply) => {
      const script = load();
      if (!script)
        return reply
          .status(503)
          .header('cache-control', 'no-store')
          .send(errorBody('not_built', 'The storefront widget has not been built: run npm run build.'));
      void reply
        .header('cache-control', 'public, max-age=300')
        .header('cross-origin-resource-policy', 'cross-origin')
        // A storefront route: any page may load it, also with crossorigin="anonymous".
        .header('access-control-allow-origin', '*')
        .header('x-content-type-options', 'nosniff')
        .header('vary', 'accept-encoding');
      // q-values count: `gzip;q=0` refuses gzip.
      const gzip = negotiate(request.headers['accept-encoding'] ?? '', ['gzip', 'identity']) === 'gzip';
      const etag = gzip ? script.gzipEtag : script.etag;
      void reply.header('etag', etag);
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.status(304).send();
      void reply.header('content-type', 'text/javascript; charset=utf-8');
      return gzip ? reply.header('content-encoding', 'gzip').send(script.gzip) : reply.send(script.bytes);
    },
  );

  app.get(
    '/widget-demo',
    {
      schema: {
        hide: true,
        response: {
          200: nonJson('text/html', 'the demo page'),
          '4xx': nonJson('text/html', 'the help page, saying what is wrong'),
          '5xx': InlineErrors['5xx'],
        },
      },
    },
    async (request, reply) => {
      const query = demoQuery(request);
      const key = query?.key;
      const help = (status: number, problem: string | null) =>
        reply.status(status).headers(WIDGET_DEMO_HEADERS).send(renderWidgetDemoHelp(problem));
      if (query !== null && key === null) return help(200, null);
      if (!key || !KEY.test(key))
        return help(
          400,
          'That is not an API key: a public key looks like rb_pub_ ' +
            'followed by 32 letters, digits, dashes or underscores.',
        );
      const product = query?.product;
      const handle = typeof product === 'string' && HANDLE.test(product) ? product : null;
      const found = await demo.lookup(key, handle);
      // A 401, as an unknown key is everywhere: it counts against the address's failed authentications, so
      // the page cannot be used to try keys without bound.
      if (found.kind === 'unknown')
        return help(
          401,
          'No shop has this public key. Keys are shown once at start-up; npm run rebound -- keys demo issues new ones.',
        );
      if (found.kind === 'private')
        return help(403, "This is a private key, which must never be put in a web page: use the shop's public key.");
      return reply.status(200).headers(WIDGET_DEMO_HEADERS).send(renderWidgetDemoPage(found, key));
    },
  );
}
