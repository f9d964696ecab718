import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, type ErrorCode, TooManyRequestsError, UnavailableError } from '../../domain/errors.js';
import { clip } from '../../domain/params/param.js';

interface ValidationIssue {
  instancePath?: string;
  params?: Record<string, unknown>;
  message?: string;
}

/** The body every error answers: the message, its code, then the error's own fields (docs/api.md, "Error codes"). */
type ErrorBody = { error: string; code: ErrorCode } & Record<string, unknown>;

const PARTS: Record<string, string> = {
  querystring: 'query parameter',
  params: 'path parameter',
  body: 'body field',
  headers: 'header',
};

/** "query parameter limit: must be string" — names what the caller sent wrong, and which parameter. */
function describeValidation(error: FastifyError): ErrorBody {
  const issue = (error.validation?.[0] ?? {}) as ValidationIssue;
  const part = PARTS[error.validationContext ?? ''] ?? 'parameter';
  const path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const missing = issue.params?.missingProperty as string | undefined;
  if (missing) {
    const parameter = [path, missing].filter(Boolean).join('.');
    return { error: `Missing required ${part} ${parameter}.`, code: 'missing_parameter', parameter };
  }
  const allowed = issue.params?.allowedValues as unknown[] | undefined;
  const detail = allowed ? `must be one of ${allowed.join(', ')}` : (issue.message ?? 'is invalid');
  const message = `Invalid ${part}${path ? ` ${path}` : ''}: ${detail}.`;
  // A body that is not the object the route takes names no field: the body as a whole is wrong.
  if (!path) return { error: message, code: error.validationContext === 'body' ? 'invalid_body' : 'bad_request' };
  return { error: message, code: 'invalid_parameter', parameter: path };
}

/** Fastify's own refusals before a route runs (body parsing, size, media type), in the caller's words. */
const FRAMEWORK: Record<string, { code: ErrorCode; error?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', error: 'Request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    error: 'Unsupported Content-Type: send application/json (or application/x-ndjson for bulk admin bodies).',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_body', error: 'The request body is empty; send a JSON document.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_body', error: 'The request body is not valid JSON.' },
  // @fastify/multipart refuses a field named __proto__ (its own message is kept).
  FST_PROTO_VIOLATION: { code: 'invalid_body' },
};

/** The code of a 4xx Fastify raises that has no entry above, by its status. */
function codeOfStatus(status: number): ErrorCode {
  if (status === 404) return 'unknown_route';
  if (status === 413) return 'payload_too_large';
  if (status === 414) return 'path_too_long';
  if (status === 415) return 'unsupported_media_type';
  return 'bad_request';
}

/** A Fastify 4xx as the one error body. */
function frameworkErrorBody(error: FastifyError, status: number): ErrorBody {
  const known = error.code ? FRAMEWORK[error.code] : undefined;
  const message = error.message.endsWith('.') ? error.message : `${error.message}.`;
  return { error: known?.error ?? message, code: known?.code ?? codeOfStatus(status) };
}

/** Maps every error to `{"error": "...", "code": "..."}` once; 5xx causes are logged, never echoed. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error instanceof UnavailableError) void reply.header('Retry-After', String(error.retryAfter));
      if (error instanceof TooManyRequestsError) void reply.header('Retry-After', String(error.retryAfter));
      return reply.status(error.status).send({ error: error.message, code: error.code, ...error.details() });
    }
    if (error.validation) {
      return reply.status(400).send(describeValidation(error));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send(frameworkErrorBody(error, status));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'Internal server error.', code: 'internal_error' });
  });

  app.setNotFoundHandler((request, reply) => {
    // The path is echoed clipped: an unknown URL of 30 KB is not sent back whole.
    const path = clip(request.url.split('?')[0] ?? '', 200);
    return reply.status(404).send({ error: `Route ${request.method} ${path} not found.`, code: 'unknown_route' });
  });
}
