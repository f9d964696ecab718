import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../../config/config.js';

/** Query parameters that carry credentials, link signatures or personal data. */
const SECRET_PARAMS = /([?&](?:key|token|sig|merchant_token|subject_email|email)=)[^&#]*/gi;

/** The URL as logged: credentials and personal data in the query string replaced by [redacted]. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** Structured JSON logs with request ids; keys, tokens and emails never reach them. */
export function loggerOptions(level: LogLevel): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', 'headers.authorization', 'headers["x-api-key"]'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string; ip?: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url), ip: req.ip }),
    },
  };
}
