/**
 * A preset dictionary for compressing products' answer bytes (deflate, RFC 1951 §2 with a preset
 * window): the serializer's keys in its order, and the values every platform writes the same way.
 * It holds no shop's data, only the shape of a product document, so a product of any shop
 * compresses against it; the strings used most sit at the end, where matches cost fewest bits.
 * Changing it is safe at any time: the compressed bytes live only in memory, never stored.
 */
const metafield = (owner: string) =>
  `{"id":1,"owner_id":1,"namespace":"","key":"","value":"","value_type":"string","description":null,` +
  `"owner_resource":"${owner}","created_at":"T00:00:00Z","updated_at":"T00:00:00Z",` +
  `"admin_graphql_api_id":"gid://shop/Metafield/"}`;

const image =
  '{"id":1,"product_id":1,"position":1,"created_at":"T00:00:00Z","updated_at":"T00:00:00Z","alt":"",' +
  '"width":800,"height":800,"src":"https://","variant_ids":[]}';

const variant =
  '{"id":1,"product_id":1,"title":"","price":"0.00","compare_at_price":null,"sku":"","position":1,' +
  '"inventory_policy":"deny","inventory_management":"shop","inventory_quantity":0,"old_inventory_quantity":0,' +
  '"fulfillment_service":"manual","option1":"","option2":null,"option3":null,"taxable":true,' +
  '"requires_shipping":true,"barcode":"","grams":0,"weight":0,"weight_unit":"kg","image_id":null,' +
  '"inventory_item_id":1,"tax_code":"","created_at":"T00:00:00Z","updated_at":"T00:00:00Z"}';

export const PRODUCT_DICTIONARY = Buffer.from(
  `,"metafields":[${metafield('product')},${metafield('variant')},"value_type":"json_string"]` +
    `"inventory_policy":"continue","inventory_management":null,"weight_unit":"lb","weight_unit":"g",` +
    '{"id":1,"title":"","body_html":"<p></p>","vendor":"","product_type":"","created_at":"T00:00:00Z",' +
    '"updated_at":"T00:00:00Z","published_at":"T00:00:00Z","handle":"","template_suffix":null,' +
    `"published_scope":"web","tags":"","variants":[${variant},${variant}],` +
    `"options":[{"id":1,"product_id":1,"name":"Size","position":1,"values":[]},` +
    `{"id":1,"product_id":1,"name":"Color","position":2,"values":[]}],` +
    `"images":[${image},${image}],"image":${image}},"metafields":[],"metafields":[]`,
);
