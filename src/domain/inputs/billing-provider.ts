import { Type, type Static } from '@sinclair/typebox';
import { HeaderToken } from './token.js';

/** The API versions the remote provider speaks. */
export const REMOTE_API_VERSIONS = ['2021-11'] as const;

export const BillingProviderInput = Type.Object(
  {
    type: Type.Union([Type.Literal('ledger'), Type.Literal('remote')], {
      description: "ledger (Rebound's own tables, the default) or remote",
    }),
    base_url: Type.Optional(
      Type.String({
        maxLength: 500,
        description: "https URL of the provider's REST API, e.g. https://api.rechargeapps.com",
      }),
    ),
    api_token: Type.Optional(HeaderToken('write-only: stored encrypted, never returned; omit to keep the stored one')),
    api_version: Type.Optional(
      Type.Union(
        REMOTE_API_VERSIONS.map((v) => Type.Literal(v)),
        { description: 'the API version spoken (default 2021-11)' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type BillingProviderInput = Static<typeof BillingProviderInput>;
