import { randomUUID } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
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

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

/**
 * The URL as logged: the values of secret parameters, and any value holding an e-mail address,
 * replaced by [redacted]. Names are percent-decoded first, so `%6Bey=` is `key=`.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const pairs = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = decoded(pair.slice(0, eq)).trim().toLowerCase();
      const secret = SECRET_NAMES.has(name) || EMAIL.test(decoded(pair.slice(eq + 1)));
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
    },
  };
}
