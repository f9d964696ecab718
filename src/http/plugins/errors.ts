import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, TooManyRequestsError, UnavailableError } from '../../domain/errors.js';

interface ValidationIssue {
  instancePath?: string;
  params?: Record<string, unknown>;
  message?: string;
}

const PARTS: Record<string, string> = { querystring: 'query parameter', params: 'path parameter', body: 'body field', headers: 'header' };

/** "query parameter limit: must be string" — names what the caller sent wrong. */
function describeValidation(error: FastifyError): string {
  const issue = (error.validation?.[0] ?? {}) as ValidationIssue;
  const part = PARTS[error.validationContext ?? ''] ?? 'parameter';
  const path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const missing = issue.params?.missingProperty as string | undefined;
  if (missing) return `Missing required ${part} ${[path, missing].filter(Boolean).join('.')}.`;
  const allowed = issue.params?.allowedValues as unknown[] | undefined;
  const detail = allowed ? `must be one of ${allowed.join(', ')}` : (issue.message ?? 'is invalid');
  return `Invalid ${part}${path ? ` ${path}` : ''}: ${detail}.`;
}

/** Maps every error to `{"error": "..."}` once; 5xx causes are logged, never echoed. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error instanceof UnavailableError) void reply.header('Retry-After', String(error.retryAfter));
      if (error instanceof TooManyRequestsError) void reply.header('Retry-After', String(error.retryAfter));
      return reply.status(error.status).send({ error: error.message, ...error.details() });
    }
    if (error.validation) {
      return reply.status(400).send({ error: describeValidation(error) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ error: clientMessage(error) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'Internal server error.' });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return reply.status(404).send({ error: `Route ${request.method} ${path} not found.` });
  });
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Content-Type: send application/json (or application/x-ndjson for bulk admin bodies).';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty; send a JSON document.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON.';
    default:
      return error.message.endsWith('.') ? error.message : `${error.message}.`;
  }
}
