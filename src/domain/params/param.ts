import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { InvalidInputError, MissingInputError } from '../errors.js';

/** Where a parameter kind keeps its decoder on the schema (a symbol, so JSON Schema and OpenAPI never see it). */
export const DECODE: unique symbol = Symbol.for('rebound.param.decode');
/** Marks an object schema whose properties are parameters read by `readParams`. */
export const PARAMS: unique symbol = Symbol.for('rebound.params');

/**
 * How one parameter is read: `decode` turns the raw text (undefined when absent or empty) into
 * its value or throws an InvalidInputError naming it; `key` gives the value's canonical form for
 * cache keys, or null when the value is the default (so an explicit default shares the key).
 */
export interface ParamDecoder<T> {
  decode(raw: string | undefined, name: string): T;
  key(value: T): string | null;
  /** Left out of cache keys whatever its value (the API key, bust_cache). */
  readonly unkeyed?: boolean;
  /** An empty value reaches `decode` as '' instead of as absent (a header sent empty is refused). */
  readonly keepsEmpty?: boolean;
}

/** A parameter's schema: a string for JSON Schema and OpenAPI, with its decoder attached. */
export type TParam<T> = TSchema & { readonly [DECODE]: ParamDecoder<T> };

/** An object schema of parameters. */
export type TParams<P extends TProperties = TProperties> = TObject<P> & { readonly [PARAMS]: true };

/** The decoded value of each declared parameter (absent ones hold their defaults). */
export type ParamsOf<P extends TProperties> = {
  -readonly [K in keyof P]: P[K] extends TParam<infer T> ? T : Static<P[K]>;
};

export interface ParamOptions {
  description: string;
  examples?: string[];
  /** Shown as required in OpenAPI; the decoder enforces it. */
  required?: boolean;
}

/** Declares a parameter: an (optional) string schema carrying its decoder. */
export function param<T>(options: ParamOptions, decoder: ParamDecoder<T>): TParam<T> {
  const text = Type.String({
    description: options.description,
    ...(options.examples ? { examples: options.examples } : {}),
  });
  const schema = options.required ? text : Type.Optional(text);
  return Object.assign(schema, { [DECODE]: decoder }) as unknown as TParam<T>;
}

/** An object of parameters; unknown parameters are allowed and ignored (storefront scripts send extra ones). */
/** The same parameter, left out of cache keys (the API key, bust_cache). */
export function unkeyed<T>(parameter: TParam<T>): TParam<T> {
  return Object.assign(parameter, { [DECODE]: { ...parameter[DECODE], unkeyed: true } });
}

export function params<P extends TProperties>(properties: P, options: { description?: string } = {}): TParams<P> {
  return Object.assign(Type.Object(properties, { additionalProperties: true, ...options }), {
    [PARAMS]: true as const,
  });
}

export function isParams(schema: unknown): schema is TParams {
  return typeof schema === 'object' && schema !== null && (schema as { [PARAMS]?: boolean })[PARAMS] === true;
}

export function decoderOf(schema: TSchema): ParamDecoder<unknown> | undefined {
  return (schema as { [DECODE]?: ParamDecoder<unknown> })[DECODE];
}

/** Keeps echoed input short and printable in error messages. */
export function clip(text: string, max = 40): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this replaces
  const printable = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return printable.length > max ? `${printable.slice(0, max)}…` : printable;
}

export function invalid(name: string, message: string): InvalidInputError {
  return new InvalidInputError(name, message);
}

/** The error for a required parameter that is absent (the endpoint's own message, or the seed's). */
export function missing(name: string, message = `Missing required endpoint argument: ${name}.`): MissingInputError {
  return new MissingInputError(name, message);
}
