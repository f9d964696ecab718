import { Type } from '@sinclair/typebox';
import { ERROR_CODES, type ErrorCode } from '../../domain/errors.js';

/** The stable machine-readable code of an error body (docs/api.md, "Error codes"). */
export const ErrorCodeSchema = Type.Unsafe<ErrorCode>({
  type: 'string',
  enum: Object.keys(ERROR_CODES),
  description: 'a stable snake_case code: messages may change, codes do not',
});

/**
 * The one error body (the error handler in plugins/errors.ts): a sentence and its code, the
 * parameter for a parameter error, and for a document that is not valid (422) the first
 * problem's row and field and every problem.
 */
const errorFields = {
  error: Type.String({ description: 'a sentence naming the parameter and what is wrong' }),
  code: ErrorCodeSchema,
  parameter: Type.Optional(Type.String({ description: 'missing_parameter, invalid_parameter: the parameter named' })),
  index: Type.Optional(Type.Integer({ description: '422: the row of a bulk body the first problem is in' })),
  field: Type.Optional(Type.String({ description: "422: the first problem's JSON path" })),
  problems: Type.Optional(
    Type.Array(Type.Object({ index: Type.Optional(Type.Integer()), path: Type.String(), message: Type.String() }), {
      description: '422: every problem found',
    }),
  ),
};

export const ErrorResponse = Type.Object(errorFields, { $id: 'Error' });

/**
 * A reference to the error body. Deliberately not a typed schema: routes also send pre-assembled
 * bytes (Buffers), which a typed reply would refuse; the answers are checked by the test instead.
 */
export const ErrorRef = { $ref: 'Error' } as const;

/** Every route may answer an error in the one shape: 4xx for the caller's mistakes, 5xx for ours or a dependency's. */
export const Errors = { '4xx': ErrorRef, '5xx': ErrorRef } as const;

/**
 * The same errors for routes that are also mounted on their own, without the app's shared
 * schemas (the console and the widget, whose tests serve them from a bare Fastify).
 */
const InlineError = Type.Object(errorFields);
export const InlineErrors = { '4xx': InlineError, '5xx': InlineError } as const;

/** A route that answers one content type other than JSON (a page, a script, an image, metrics text). */
export function nonJson(contentType: string, description: string) {
  return { description, content: { [contentType]: { schema: Type.String() } } };
}

/** An answer without a body (204, 304). */
export const NoContent = Type.Unsafe<void>({ type: 'null', description: 'no body' });

/** A page for the customer, or the one error body when the request itself is refused. */
export const PageOrError = {
  description: 'a page for the customer, or an error body',
  content: { 'text/html': { schema: Type.String() }, 'application/json': { schema: ErrorRef } },
};
