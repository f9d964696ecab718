import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { WidgetInput } from '../../../domain/widgets/widget.js';
import type { ShopsService } from '../../../services/shops.js';
import type { WidgetsService } from '../../../services/widgets.js';
import { shopOf } from '../../plugins/request-shop.js';
import { bodyValidatedByService, type ParamsTypeProvider } from '../../plugins/params.js';
import { renderCustomAnswer } from '../../render/custom.js';
import { renderList } from '../../render/products.js';
import { HandleIdPath, HandlePath } from '../../schemas/admin-params.js';
import { Errors, NoContent } from '../../schemas/errors.js';
import { WidgetAnswer, WidgetSchema } from '../../schemas/widgets.js';

const tags = ['admin: widgets'];

/** Storefront widgets as data (docs/widget.md, "Widgets as data"). */
export function widgetAdminRoutes(app: FastifyInstance, deps: { shops: ShopsService; widgets: WidgetsService }): void {
  const { widgets } = deps;
  const api = app.withTypeProvider<ParamsTypeProvider>();
  const write = { ...bodyValidatedByService };

  api.get(
    '/shops/:handle/widgets',
    {
      schema: {
        summary: 'Every widget, oldest first',
        tags,
        params: HandlePath,
        response: { 200: Type.Object({ data: Type.Array(WidgetSchema) }), ...Errors },
      },
    },
    async (request) => ({ data: await widgets.list(shopOf(request).id) }),
  );

  api.post(
    '/shops/:handle/widgets',
    {
      ...write,
      schema: {
        summary: 'Create a widget (422 names each problem)',
        tags,
        params: HandlePath,
        body: WidgetInput,
        response: { 201: WidgetAnswer, ...Errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ widget: await widgets.create(shopOf(request).id, request.body) }),
  );

  api.post(
    '/shops/:handle/widgets/preview',
    {
      ...write,
      schema: {
        summary: "The products a widget design shows (saved or not), as the storefront's request would get them",
        description:
          "The query string is the page's context, read as the source's storefront request reads it " +
          '(`shop_product_ids`, `shop_variant_ids`, `shop_customer_id`, `uuid`, the cart, …); `limit` and a ' +
          'parameter the source does not read are a 400 naming them.',
        tags,
        params: HandlePath,
        body: WidgetInput,
        response: {
          200: Type.Object({
            data: Type.Array(Type.Ref('Product')),
            metadata: Type.Object({}, { additionalProperties: true }),
          }),
          ...Errors,
        },
      },
    },
    async (request, reply) => {
      const page = request.query as Record<string, unknown>;
      const preview = await widgets.preview(shopOf(request).id, request.body, page);
      const body =
        preview.kind === 'ruleset'
          ? renderCustomAnswer(preview.answer, preview.params)
          : renderList(preview.answer, preview.params);
      return reply.header('content-type', 'application/json; charset=utf-8').send(body);
    },
  );

  api.get(
    '/shops/:handle/widgets/:id',
    { schema: { summary: 'A widget', tags, params: HandleIdPath, response: { 200: WidgetAnswer, ...Errors } } },
    async (request) => ({ widget: await widgets.get(shopOf(request).id, request.params.id) }),
  );

  api.put(
    '/shops/:handle/widgets/:id',
    {
      ...write,
      schema: {
        summary: 'Replace a widget; storefronts show it on their next load',
        tags,
        params: HandleIdPath,
        body: WidgetInput,
        response: { 200: WidgetAnswer, ...Errors },
      },
    },
    async (request) => ({ widget: await widgets.update(shopOf(request).id, request.params.id, request.body) }),
  );

  api.delete(
    '/shops/:handle/widgets/:id',
    {
      schema: {
        summary: 'Delete a widget; its snippet then shows nothing',
        tags,
        params: HandleIdPath,
        response: { 204: NoContent, ...Errors },
      },
    },
    async (request, reply) => {
      await widgets.remove(shopOf(request).id, request.params.id);
      return reply.status(204).send();
    },
  );
}
