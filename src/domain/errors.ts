/**
 * The errors every layer may raise; the HTTP layer maps each to its status once.
 * Messages are sentences for the API caller: they name the parameter and what is wrong.
 */
export abstract class AppError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  /** Extra fields merged into the JSON error body. */
  details(): Record<string, unknown> {
    return {};
  }
}

/** A request parameter is missing or malformed (400). */
export class InvalidInputError extends AppError {
  readonly status = 400;
  readonly code = 'invalid_input';
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

export class UnauthorizedError extends AppError {
  readonly status = 401;
  readonly code = 'unauthorized';
}

export class ForbiddenError extends AppError {
  readonly status = 403;
  readonly code = 'forbidden';
}

export class NotFoundError extends AppError {
  readonly status = 404;
  readonly code = 'not_found';
}

export class ConflictError extends AppError {
  readonly status = 409;
  readonly code = 'conflict';
}

/** A well-formed document that is not valid (422): names the row index and field. */
export class InvalidDocumentError extends AppError {
  readonly status = 422;
  readonly code = 'invalid_document';
  constructor(
    message: string,
    readonly problems: { index?: number; path: string; message: string }[],
  ) {
    super(message);
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
  readonly status = 503;
  readonly code = 'unavailable';
  constructor(
    message: string,
    readonly retryAfter = 5,
  ) {
    super(message);
  }
}

/** A remote dependency answered, but not in a way Rebound can use (502); the message says which. */
export class BadGatewayError extends AppError {
  readonly status = 502;
  readonly code = 'bad_gateway';
}

/** A caller over its rate limit (429); `retryAfter` in seconds goes into the Retry-After header. */
export class TooManyRequestsError extends AppError {
  readonly status = 429;
  readonly code = 'rate_limited';
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(message);
  }
}
