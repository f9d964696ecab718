import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';
import type { LogLevel } from '../../config/config.js';

/** Query parameters that carry credentials, link signatures or personal data (names compared decoded, any case). */
const SECRET_NAMES = new Set([
  'key',
  'customer_sig',
  'sig',
  'merchant_token',
  'tk',
  'token',
  'access_token',
  'subject_email',
  'email',
]);
const EMAIL = /[^\s@&=?/]+@[^\s@&=?/]+\.[^\s@&=?/]+/;
/**
 * Names that suggest a credential, whatever the endpoint reads (`private_key`, `admin_token`,
 * `api_secret`): a client that misnames its key still sends it.
 */
const SECRET_NAME_PART = /key|token|secret|sig|passw|auth/;
/** A Rebound key in a value, under any name (`key[]=rb_pub_…`, `k=rb_priv_…`, `limit=10rb_priv_…`), or bare. */
const KEY_VALUE = /rb_(?:pub|priv)_/i;

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

/**
 * The URL as logged: the values of secret parameters (by name, or by a name that suggests a
 * credential), any value holding an e-mail address or a Rebound key, and a bare word holding a key, replaced
 * by [redacted]. Names are percent-decoded first, so `%6Bey=` is `key=`.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const pairs = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return KEY_VALUE.test(decoded(pair)) ? '[redacted]' : pair;
      // `key[]` and `key[0]` are the same key as `key`.
      const name = decoded(pair.slice(0, eq)).trim().toLowerCase().replace(/\[.*$/, '');
      const value = decoded(pair.slice(eq + 1));
      const secret =
        SECRET_NAMES.has(name) || SECRET_NAME_PART.test(name) || EMAIL.test(value) || KEY_VALUE.test(value);
      return secret ? `${pair.slice(0, eq)}=[redacted]` : pair;
    });
  return `${url.slice(0, at)}?${pairs.join('&')}`;
}

/** A client's X-Request-Id when it is at most 64 characters of [A-Za-z0-9._-]; else a new id. */
export function requestId(request: { headers: Record<string, string | string[] | undefined> }): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(sent) ? sent : randomUUID();
}

/** Structured JSON logs with request ids; keys, tokens and emails never reach them. */
export function loggerOptions(level: LogLevel): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        'headers.authorization',
        'headers["x-api-key"]',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string; ip?: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
      // The shop the edge resolved, by handle: an operator of many shops finds whose requests fail.
      res: (reply: { statusCode: number; request?: { shop?: { handle: string } | null } }) => {
        const handle = reply.request?.shop?.handle;
        return handle === undefined ? { statusCode: reply.statusCode } : { statusCode: reply.statusCode, shop: handle };
      },
    },
  };
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = Parameters<FastifyBaseLogger['info']>;

/**
 * A request's logger whose pino child is made when the request first writes a line at an enabled
 * level: the child (its bindings serialized, its level methods bound) cost every request a few
 * microseconds, and at the usual levels most requests write nothing. Lines are the child's own.
 */
class RequestLogger {
  #child: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger & { isLevelEnabled(level: string): boolean },
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private made(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  private write(level: Level, args: LogArgs): void {
    if (this.#child) (this.#child[level] as (...a: LogArgs) => void)(...args);
    else if (this.parent.isLevelEnabled(level)) (this.made()[level] as (...a: LogArgs) => void)(...args);
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.made().level = level;
  }

  fatal(...args: LogArgs): void {
    this.write('fatal', args);
  }
  error(...args: LogArgs): void {
    this.write('error', args);
  }
  warn(...args: LogArgs): void {
    this.write('warn', args);
  }
  info(...args: LogArgs): void {
    this.write('info', args);
  }
  debug(...args: LogArgs): void {
    this.write('debug', args);
  }
  trace(...args: LogArgs): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made().child(bindings, options);
  }
}

/** Fastify's per-request logger factory: deferred unless the route sets its own level or serializers. */
export const requestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) => {
  if (options.level !== undefined || options.serializers !== undefined || !('isLevelEnabled' in logger))
    return logger.child(bindings, options);
  return new RequestLogger(logger as RequestLogger['parent'], bindings, options) as unknown as FastifyBaseLogger;
};
