/**
 * The errors every layer may raise; the HTTP layer maps each to its status once.
 * Messages are sentences for the API caller: they name the parameter and what is wrong.
 * Messages may change; codes do not (docs/api.md, "Error codes").
 */

/**
 * Every code an error body may carry, its status and when it happens. A new kind of error is one
 * line here (docs/api.md lists the same codes; test/docs.test.ts keeps the two equal).
 */
export const ERROR_CODES = {
  missing_parameter: { status: 400, when: 'a required parameter (query, path, body field or header) is absent' },
  invalid_parameter: { status: 400, when: 'a parameter is malformed, out of range or given twice' },
  invalid_body: {
    status: 400,
    when: 'the body is empty, is not JSON (or NDJSON), or is not the object the route takes',
  },
  invalid_path: { status: 400, when: 'the URL path cannot be routed (a percent-encoded segment does not decode)' },
  bad_request: { status: 400, when: 'any other request refused before it reaches a route' },
  missing_credentials: { status: 401, when: 'an admin request without Authorization: Bearer' },
  invalid_credentials: { status: 401, when: 'the admin token is neither the operator token nor a live private key' },
  invalid_key: { status: 401, when: 'the API key is unknown or revoked' },
  webhook_signature: {
    status: 401,
    when: "a webhook's signature is absent, wrong or too old, or its shop is unknown or has no secret for it",
  },
  payment_failed: { status: 402, when: 'the card was refused; the body also holds the recorded charge' },
  key_scope: { status: 403, when: 'the key lacks what the request needs: a private key, or the read_markets scope' },
  customer_signature: { status: 403, when: 'the shop requires customer_sig and it is missing or wrong' },
  operator_only: { status: 403, when: 'the action needs the operator token, not a shop key' },
  not_found: {
    status: 404,
    when: 'the shop, product, charge, address, campaign, customer or experiment does not exist',
  },
  unknown_ruleset: { status: 404, when: 'the ruleset does not exist, is disabled, or belongs to another shop' },
  unknown_route: { status: 404, when: 'no route has this method and path' },
  not_acceptable: { status: 406, when: 'a page link requested without Accept: text/html' },
  request_timeout: { status: 408, when: 'the request line, headers or body did not arrive in time' },
  conflict: { status: 409, when: 'the change clashes with the current state (a taken handle, a running experiment)' },
  idempotency_conflict: { status: 409, when: 'the Idempotency-Key was used before with other parameters' },
  idempotency_in_progress: { status: 409, when: 'a request with this Idempotency-Key is still running; retry shortly' },
  payload_too_large: { status: 413, when: 'the body is over the size limit' },
  path_too_long: { status: 414, when: 'a path parameter (an id or handle in the path) is over 100 characters' },
  unsupported_media_type: { status: 415, when: 'the Content-Type or Content-Encoding is not one the route reads' },
  invalid_document: { status: 422, when: 'a well-formed document is not valid; index, field and problems say where' },
  rate_limited: { status: 429, when: 'the key is over its rate limit; Retry-After says when to retry' },
  headers_too_large: { status: 431, when: 'the request line and headers are over 48 KB (a URL of 32,000 bytes fits)' },
  internal_error: { status: 500, when: 'a fault of the server; the cause is logged, not echoed' },
  upstream_refused: { status: 502, when: 'the billing provider refused the request or its token' },
  upstream_invalid: { status: 502, when: 'the billing provider answered something Rebound cannot read' },
  unavailable: { status: 503, when: 'the database is unavailable or nothing could be stored; Retry-After says when' },
  upstream_unavailable: { status: 503, when: 'the billing provider does not answer; Retry-After says when' },
  not_ready: { status: 503, when: 'the readiness check: the database does not answer' },
  not_built: { status: 503, when: 'the console or the widget has not been built' },
} as const satisfies Record<string, { status: number; when: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes whose status is S: a NotFoundError can only carry a 404 code. */
export type CodeOf<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C]['status'] extends S ? C : never;
}[ErrorCode];

/**
 * A database another version of Rebound migrated in a way this one cannot run on (not an answer to a
 * request: start-up and `rebound migrate` stop with it, in one line).
 */
export class SchemaMismatchError extends Error {}

/** An error the caller may read: its status follows from its code. */
export abstract class AppError extends Error {
  readonly status: number;
  constructor(
    message: string,
    readonly code: ErrorCode,
  ) {
    super(message);
    this.status = ERROR_CODES[code].status;
  }
  /** Extra fields merged into the JSON error body. */
  details(): Record<string, unknown> {
    return {};
  }
}

/** A request parameter is malformed (400); `parameter` in the body names it. */
export class InvalidInputError extends AppError {
  constructor(
    readonly param: string,
    message: string,
    code: 'invalid_parameter' | 'missing_parameter' = 'invalid_parameter',
  ) {
    super(message, code);
  }
  override details(): Record<string, unknown> {
    return { parameter: this.param };
  }
}

/** A required request parameter is absent (400). */
export class MissingInputError extends InvalidInputError {
  constructor(param: string, message: string) {
    super(param, message, 'missing_parameter');
  }
}

/** The body as a whole cannot be read (400): not JSON, not NDJSON, not an object. */
export class InvalidBodyError extends AppError {
  constructor(message: string) {
    super(message, 'invalid_body');
  }
}

/** The body is sent in a form the route does not read (415): a compressed body, say. */
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(message, 'unsupported_media_type');
  }
}

export class UnauthorizedError extends AppError {
  constructor(message: string, code: CodeOf<401>) {
    super(message, code);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string, code: CodeOf<403>) {
    super(message, code);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string, code: CodeOf<404> = 'not_found') {
    super(message, code);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code: CodeOf<409> = 'conflict') {
    super(message, code);
  }
}

/** A well-formed document that is not valid (422): names the row index and field. */
export class InvalidDocumentError extends AppError {
  constructor(
    message: string,
    readonly problems: { index?: number; path: string; message: string }[],
  ) {
    super(message, 'invalid_document');
  }
  override details(): Record<string, unknown> {
    const first = this.problems[0];
    return {
      ...(first?.index !== undefined ? { index: first.index } : {}),
      ...(first ? { field: first.path } : {}),
      problems: this.problems,
    };
  }
}

/** A dependency (database, billing provider) is down; the caller should retry after `retryAfter` seconds (503). */
export class UnavailableError extends AppError {
  constructor(
    message: string,
    readonly retryAfter = 5,
    code: CodeOf<503> = 'unavailable',
  ) {
    super(message, code);
  }
}

/** A remote dependency answered, but not in a way Rebound can use (502); the message says which. */
export class BadGatewayError extends AppError {
  constructor(message: string, code: CodeOf<502> = 'upstream_refused') {
    super(message, code);
  }
}

/** A caller over its rate limit (429); `retryAfter` in seconds goes into the Retry-After header. */
export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(message, 'rate_limited');
  }
}

/** The body of an error answered outside the handler (a route's own 503, 404 or 406): same shape. */
export function errorBody(code: ErrorCode, message: string): { error: string; code: ErrorCode } {
  return { error: message, code };
}
