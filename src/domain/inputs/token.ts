import { Type } from '@sinclair/typebox';

/**
 * A credential Rebound sends in an HTTP header (a provider's API token, the platform's access token):
 * printable ASCII without blanks. Anything else was stored, and then no call could carry it.
 */
export const HeaderToken = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: 500,
    pattern: '^[\\x21-\\x7E]+$',
    patternMessage: 'may hold only letters, digits and punctuation, without blanks (it is sent in an HTTP header)',
    description,
  });
