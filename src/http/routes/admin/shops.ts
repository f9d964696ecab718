import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { publicShop } from '../../../domain/shop.js';
import { validateDocument } from '../../../domain/inputs/validate.js';
import { NewShopInput, RevokeInput, ShopPatchInput } from '../../../domain/inputs/shop.js';
import type { ShopsService } from '../../../services/shops.js';
import { bearerOf, requireOperator } from '../../plugins/admin-auth.js';
import { shopOf } from '../../plugins/request-shop.js';
import { bodyValidatedByService, type ParamsTypeProvider } from '../../plugins/params.js';
import { HandlePath } from '../../schemas/admin-params.js';
import { Errors } from '../../schemas/errors.js';
import { IssuedKeysSchema, KeySchema, PublicShopSchema, ShopAnswer, ShopList } from '../../schemas/admin.js';

/** Shops and keys (docs/api.md, "Admin API"). */
export function shopRoutes(fastify: FastifyInstance, shops: ShopsService): void {
  const app = fastify.withTypeProvider<ParamsTypeProvider>();
  app.post(
    '/shops',
    {
      ...bodyValidatedByService,
      schema: {
        summary: 'Create a shop; its keys are shown only here',
        tags: ['admin: shops'],
        body: NewShopInput,
        response: { 201: Type.Object({ shop: PublicShopSchema, keys: IssuedKeysSchema }), ...Errors },
      },
    },
    async (request, reply) => {
      requireOperator(request);
      const { shop, keys } = await shops.createShop(request.body);
      return reply.status(201).send({ shop: publicShop(shop), keys });
    },
  );

  app.get(
    '/shops',
    {
      schema: {
        summary: 'List shops (operator token)',
        tags: ['admin: shops'],
        response: { 200: ShopList, ...Errors },
      },
    },
    async (request) => {
      requireOperator(request);
      return { data: (await shops.listShops()).map(publicShop) };
    },
  );

  app.get(
    '/shops/:handle',
    {
      schema: {
        summary: 'A shop (no secrets)',
        tags: ['admin: shops'],
        params: HandlePath,
        response: { 200: ShopAnswer, ...Errors },
      },
    },
    async (request) => ({ shop: publicShop(shopOf(request)) }),
  );

  app.patch(
    '/shops/:handle',
    {
      ...bodyValidatedByService,
      schema: {
        summary:
          'Change name, timezone, currency, public_url, webhook secrets and ' +
          'settings; scopes and rate limits need the operator token',
        tags: ['admin: shops'],
        params: HandlePath,
        body: ShopPatchInput,
        response: { 200: ShopAnswer, ...Errors },
      },
    },
    async (request) => {
      const { handle } = request.params;
      return { shop: publicShop(await shops.updateShop(handle, request.body, { operator: request.admin!.operator })) };
    },
  );

  app.post(
    '/shops/:handle/keys/rotate',
    {
      schema: {
        summary:
          'New public and private keys: the replaced ones work for 24 ' +
          'more hours, older ones and the asking private key end now',
        tags: ['admin: shops'],
        params: HandlePath,
        response: { 200: Type.Object({ keys: IssuedKeysSchema, previous_keys_expire_at: Type.String() }), ...Errors },
      },
    },
    async (request) => {
      const { handle } = request.params;
      return shops.rotateKeys(handle, request.admin!.operator ? null : bearerOf(request));
    },
  );

  app.get(
    '/shops/:handle/signing-secret',
    {
      schema: {
        summary:
          "The secret that signs the shop's reactivation links and " +
          "customer_sig: for the theme's server-side code, never for a page",
        tags: ['admin: shops'],
        params: HandlePath,
        response: { 200: Type.Object({ signing_secret: Type.String() }), ...Errors },
      },
    },
    async (request) => ({ signing_secret: shopOf(request).signing_secret }),
  );

  app.get(
    '/shops/:handle/keys',
    {
      schema: {
        summary: "The shop's keys: kind, prefix and state (never the key)",
        tags: ['admin: shops'],
        params: HandlePath,
        response: { 200: Type.Object({ data: Type.Array(KeySchema) }), ...Errors },
      },
    },
    async (request) => {
      const { handle } = request.params;
      return { data: await shops.listKeys(handle) };
    },
  );

  app.post(
    '/shops/:handle/keys/revoke',
    {
      // The operator check comes first: a shop key learns nothing about other shops from this route.
      config: { resolvesShop: false },
      ...bodyValidatedByService,
      schema: {
        summary: 'End a key at once, on every node (operator token)',
        tags: ['admin: shops'],
        params: HandlePath,
        body: RevokeInput,
        response: { 200: Type.Object({ revoked: Type.Integer() }), ...Errors },
      },
    },
    async (request) => {
      requireOperator(request);
      return shops.revokeKey(
        request.params.handle,
        validateDocument(RevokeInput, request.body, 'revocation').key_prefix,
      );
    },
  );
}
