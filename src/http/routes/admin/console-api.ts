import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { publicShop } from '../../../domain/shop.js';
import { INSIGHTS_DAYS, type InsightsService } from '../../../services/insights.js';
import type { ShopsService } from '../../../services/shops.js';
import { params } from '../../../domain/params/param.js';
import { wholeNumber } from '../../../domain/params/kinds.js';
import { shopOf } from '../../plugins/request-shop.js';
import type { ParamsTypeProvider } from '../../plugins/params.js';
import { HandlePath } from '../../schemas/admin-params.js';
import { Errors } from '../../schemas/errors.js';
import { PublicShopSchema } from '../../schemas/admin.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

const ProductRef = {
  product_id: Type.Integer(),
  title: Type.String(),
  handle: Type.String(),
  image: Nullable(Type.String({ description: 'URL of the main image' })),
};

const InsightsResponse = Type.Object({
  data: Type.Object({
    days: Type.Integer(),
    currency: Type.String(),
    trending: Type.Array(
      Type.Object({
        ...ProductRef,
        score: Type.Number({ description: 'Σ quantity × 0.5^(age in days / half-life) over the trending window' }),
      }),
      { description: 'the ranking of /api/v1/products/trending_products, top 10' },
    ),
    top_sellers: Type.Array(Type.Object({ ...ProductRef, units: Type.Integer() }), {
      description: 'units sold in the last `days` days (cancelled orders excluded), top 10',
    }),
    events_per_day: Type.Array(
      Type.Object({
        date: Type.String({ description: "YYYY-MM-DD in the shop's time zone" }),
        viewed: Type.Integer(),
        added: Type.Integer(),
        removed: Type.Integer(),
      }),
      { description: 'every day of the window, oldest first, zero days included' },
    ),
    conversion: Type.Object({
      shop_rate: Type.Number({ description: 'p: units sold over views, last 30 days' }),
      k: Type.Integer({ description: "the prior's weight" }),
      products: Type.Array(
        Type.Object({
          product_id: Type.Integer(),
          title: Type.String(),
          views: Type.Integer(),
          purchases: Type.Integer(),
          estimate: Type.Number({ description: '(purchases + k·p) / (views + k), what smart_sort=yes ranks by' }),
        }),
        { description: 'products with views or sales in the last 30 days, top 10 by estimate, then id' },
      ),
    }),
  }),
});

const tags = ['admin: console'];

const InsightsQuery = params({ days: wholeNumber('window of top sellers and events per day', INSIGHTS_DAYS) });

/** What the merchant console reads beyond the fixed admin paths: who is signed in, and a shop's overview. */
export function consoleApiRoutes(
  app: FastifyInstance,
  deps: {
    shops: ShopsService;
    insights: InsightsService;
    /** REBOUND_SECRET_KEY is set: a platform's access token or a billing token can be stored. */
    canStoreTokens: boolean;
  },
): void {
  app.get(
    '/session',
    {
      schema: {
        summary: "Who the bearer is: the operator token (every shop) or a shop's private key (that shop)",
        tags,
        response: {
          200: Type.Object({
            operator: Type.Boolean(),
            shops: Type.Array(PublicShopSchema),
            can_store_tokens: Type.Boolean({
              description: 'whether this server can store upstream access tokens (REBOUND_SECRET_KEY is set)',
            }),
          }),
          ...Errors,
        },
      },
    },
    async (request) => {
      const admin = request.admin!;
      const can_store_tokens = deps.canStoreTokens;
      if (admin.operator)
        return { operator: true, shops: (await deps.shops.listShops()).map(publicShop), can_store_tokens };
      return { operator: false, shops: [publicShop(await deps.shops.requireShopById(admin.shopId))], can_store_tokens };
    },
  );

  app.withTypeProvider<ParamsTypeProvider>().get(
    '/shops/:handle/insights',
    {
      schema: {
        summary: 'Trending, top sellers, events per day and estimated conversion of a shop',
        tags,
        params: HandlePath,
        querystring: InsightsQuery,
        response: { 200: InsightsResponse, ...Errors },
      },
    },
    async (request) => {
      const shop = shopOf(request);
      return { data: await deps.insights.insights(shop, request.query.days) };
    },
  );
}
