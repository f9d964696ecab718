import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';

/**
 * What a pattern means, in words, beside the pattern in a schema (`{ pattern: '\\S', patternMessage:
 * 'must not be blank' }`): an API caller and a merchant in the console read this, not the expression.
 */
export interface PatternMessage {
  patternMessage?: string;
}

/** The formats the inputs' schemas use (formats.ts), in words with an example. */
const FORMAT_MESSAGES: Record<string, string> = {
  'date-time': 'must be a real date and time with its offset, such as 2026-11-29T10:00:00Z',
  'real-timestamp': 'must be a real date and time, such as 2026-11-29T10:00:00',
};

/** What a value of each JSON type is called here. */
const KIND_WORDS: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

/** Whether a value is of the JSON type a schema names. */
function ofType(value: unknown, type: unknown): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'array') return Array.isArray(value);
  if (type === 'null') return value === null;
  if (type === 'object') return value !== null && typeof value === 'object' && !Array.isArray(value);
  return typeof value === type;
}

/**
 * `must be a whole number or null`: the kinds a schema (or each of a union's) takes, when all are known
 * and the value is of none of them (a value of one of them is refused for something else, said elsewhere).
 */
function kindMessage(schema: Record<string, unknown>, value: unknown): string | null {
  const alternatives = Array.isArray(schema.anyOf) ? (schema.anyOf as Record<string, unknown>[]) : [schema];
  if (alternatives.some((option) => option.const === undefined && ofType(value, option.type))) return null;
  const words = alternatives.map((option) =>
    option.const !== undefined ? JSON.stringify(option.const) : KIND_WORDS[String(option.type)],
  );
  if (words.some((w) => w === undefined)) return null;
  const distinct = [...new Set(words)];
  const last = distinct.pop()!;
  return `must be ${distinct.length > 0 ? `${distinct.join(', ')} or ${last}` : last}`;
}

const count = (n: number, one: string) => `${n.toLocaleString('en')} ${one}${n === 1 ? '' : 's'}`;

/**
 * A schema problem in words (`must be at most 200 characters`), instead of the validator's own
 * (`Expected string length less or equal to 200`); the validator's where no plainer one is known.
 */
export function plainMessage(error: ValueError): string {
  const schema = error.schema as Record<string, unknown> & PatternMessage;
  const n = (key: string) => Number(schema[key]);
  switch (error.type) {
    case ValueErrorType.StringMinLength:
      return n('minLength') === 1 ? 'must not be empty' : `must be at least ${count(n('minLength'), 'character')}`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${count(n('maxLength'), 'character')}`;
    case ValueErrorType.StringPattern:
      return schema.patternMessage ?? error.message;
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.StringFormat:
      return FORMAT_MESSAGES[String(schema.format)] ?? error.message;
    case ValueErrorType.Integer:
    case ValueErrorType.Number:
    case ValueErrorType.String:
    case ValueErrorType.Boolean:
    case ValueErrorType.Array:
    case ValueErrorType.Object:
    case ValueErrorType.Null:
    case ValueErrorType.Union:
      return kindMessage(schema, error.value) ?? error.message;
    case ValueErrorType.Literal:
      // The one value taken (a list of one scope, the one API version spoken), not `Expected 'x'`.
      return `must be ${JSON.stringify(schema.const)}`;
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `must be at least ${n('minimum').toLocaleString('en')}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `must be at most ${n('maximum').toLocaleString('en')}`;
    case ValueErrorType.NumberExclusiveMinimum:
    case ValueErrorType.IntegerExclusiveMinimum:
      return `must be more than ${n('exclusiveMinimum').toLocaleString('en')}`;
    case ValueErrorType.NumberExclusiveMaximum:
    case ValueErrorType.IntegerExclusiveMaximum:
      return `must be less than ${n('exclusiveMaximum').toLocaleString('en')}`;
    case ValueErrorType.ArrayMinItems:
      return `must hold at least ${count(n('minItems'), 'item')}`;
    case ValueErrorType.ArrayMaxItems:
      return `must hold at most ${count(n('maxItems'), 'item')}`;
    default:
      return error.message;
  }
}
