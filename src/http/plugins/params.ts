import type { Static, TSchema } from '@sinclair/typebox';
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import type {
  FastifyInstance,
  FastifySchemaCompiler,
  FastifySchemaValidationError,
  FastifyTypeProvider,
} from 'fastify';
import type { AppError } from '../../domain/errors.js';
import { isParams, type ParamsOf, type TParams } from '../../domain/params/param.js';
import { readParams } from '../../domain/params/read.js';

/**
 * Handlers see their parameters decoded: a schema made with `params()` types `request.query` (and
 * `params`, `headers`) as the values its kinds produce; any other schema as its TypeBox static type.
 */
export interface ParamsTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends TParams<infer P>
    ? ParamsOf<P>
    : this['schema'] extends TSchema
      ? Static<this['schema']>
      : unknown;
  serializer: this['schema'] extends TSchema ? Static<this['schema']> : unknown;
}

/** Reads a request part with the one parameter reader; its first problem is the 400 (it names the parameter). */
function readerFor(schema: TParams): ReturnType<FastifySchemaCompiler<TSchema>> {
  return (data: unknown) => {
    try {
      return { value: readParams(schema, data as Record<string, unknown> | null) };
    } catch (error) {
      return { error: error as AppError };
    }
  };
}

/** Declared headers are read like parameters and put beside the others, which the rest of the request still reads. */
function headerReaderFor(schema: TParams): ReturnType<FastifySchemaCompiler<TSchema>> {
  const read = readerFor(schema);
  return (data: unknown) => {
    const result = read(data) as { value?: object; error?: AppError };
    return result.error ? result : { value: { ...(data as object), ...result.value } };
  };
}

/**
 * The app's validator compiler: parameter schemas go through the reader, every other schema
 * through TypeBox's compiled check. Routes whose bodies their services validate (422 with paths)
 * use `bodyValidatedByService` instead.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  if (isParams(route.schema))
    return route.httpPart === 'headers' ? headerReaderFor(route.schema) : readerFor(route.schema);
  const check = TypeBoxValidatorCompiler(route as Parameters<typeof TypeBoxValidatorCompiler>[0]);
  if (route.httpPart !== 'headers') return check;
  // Headers are checked, never replaced: the rest of the request still reads every header.
  return (data: unknown) => {
    const result = check(data) as { error?: FastifySchemaValidationError[] };
    return result.error ? result : { value: data };
  };
};

/** For routes whose service validates the body: parameters are still read, the body passes as it came. */
export const bodyValidatedByService = {
  validatorCompiler: ((route) =>
    route.httpPart === 'body' ? passThrough : validatorCompiler(route)) as FastifySchemaCompiler<unknown>,
} as const;

function passThrough(data: unknown) {
  return { value: data };
}

/** Installs the reader on an app (or an encapsulated part of it). */
export function registerParamsReader(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler);
}
