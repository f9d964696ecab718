import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { publicShop } from '../../../domain/shop.js';
import { NewShopInput, ShopPatchInput, type ShopsService } from '../../../services/shops.js';
import { requireOperator, shopFor } from '../../plugins/admin-auth.js';
import { bodyValidatedByService, type ParamsTypeProvider } from '../../plugins/params.js';
import { HandlePath } from '../../schemas/admin-params.js';

const KeysResponse = Type.Object({ public: Type.String(), private: Type.String() });

/** Shops and keys (product.md §8). */
export function shopRoutes(fastify: FastifyInstance, shops: ShopsService): void {
  const app = fastify.withTypeProvider<ParamsTypeProvider>();
  app.post('/shops', {
    ...bodyValidatedByService,
    schema: { summary: 'Create a shop; its keys are shown only here', tags: ['admin: shops'], body: NewShopInput, response: { 201: Type.Object({ shop: Type.Any(), keys: KeysResponse }) } },
  }, async (request, reply) => {
    requireOperator(request);
    const { shop, keys } = await shops.createShop(request.body);
    return reply.status(201).send({ shop: publicShop(shop), keys });
  });

  app.get('/shops', { schema: { summary: 'List shops (operator token)', tags: ['admin: shops'] } }, async (request) => {
    requireOperator(request);
    return { data: (await shops.listShops()).map(publicShop) };
  });

  app.get('/shops/:handle', { schema: { summary: 'A shop (no secrets)', tags: ['admin: shops'], params: HandlePath } }, async (request) => {
    const { handle } = request.params;
    return { shop: publicShop(await shopFor(request, shops, handle)) };
  });

  app.patch('/shops/:handle', {
    ...bodyValidatedByService,
    schema: { summary: 'Change name, timezone, currency, scopes, public_url, webhook secrets', tags: ['admin: shops'], params: HandlePath, body: ShopPatchInput },
  }, async (request) => {
    const { handle } = request.params;
    await shopFor(request, shops, handle);
    return { shop: publicShop(await shops.updateShop(handle, request.body)) };
  });

  app.post('/shops/:handle/keys/rotate', {
    schema: { summary: 'New public and private keys; the old ones work for 24 more hours', tags: ['admin: shops'], params: HandlePath },
  }, async (request) => {
    const { handle } = request.params;
    await shopFor(request, shops, handle);
    return shops.rotateKeys(handle);
  });
}
