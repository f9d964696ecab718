import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';

/**
 * What a pattern means, in words, beside the pattern in a schema (`{ pattern: '\\S', patternMessage:
 * 'must not be blank' }`): an API caller and a merchant in the console read this, not the expression.
 */
export interface PatternMessage {
  patternMessage?: string;
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
