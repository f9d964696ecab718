import { describe, expect, it } from 'vitest';
import { pageQueryOf, previewErrorText } from '../../console/src/widgets/preview-page.js';

describe("the widget preview's page", () => {
  it('sends the chosen products, their chosen variants and the customer as the widget script does', () => {
    expect(pageQueryOf({ products: [], customerId: ' ' })).toBe('');
    const query = pageQueryOf({
      products: [{ product_id: 3, variant_ids: [31, 32] }, { product_id: 5 }],
      customerId: ' 7 ',
    });
    expect(query).toBe('?shop_product_ids=3%2C5&shop_variant_ids=31%2C32&shop_customer_id=7');
  });

  it('says which field of the page to fill in when the list needs it, in words', () => {
    const missing = (parameter: string) =>
      previewErrorText({ message: `Missing ${parameter}.`, code: 'missing_parameter', parameter });
    expect(missing('shop_product_ids')).toContain('“Products on the page”');
    expect(missing('shop_variant_ids')).toContain('“Products on the page”');
    expect(missing('uuid')).toContain('“Signed-in customer id”');
    expect(missing('shop_customer_id')).toContain('“Signed-in customer id”');
    // A draft not yet complete is not refused in the API's words before the merchant has typed anything.
    expect(previewErrorText({ message: 'Invalid widget: name: must not be empty.', code: 'invalid_document' })).toBe(
      'The preview shows once the form is complete: Save names what is missing.',
    );
    // A new widget whose only gap is its name (Create waits for it too) is asked for its name.
    const unnamed = [
      { path: 'name', message: 'must not be empty' },
      { path: 'name', message: 'must not be blank' },
    ];
    expect(previewErrorText({ message: 'Invalid widget.', code: 'invalid_document', problems: unnamed })).toBe(
      'Name the widget to see its preview.',
    );
    expect(
      previewErrorText({
        message: 'Invalid widget.',
        code: 'invalid_document',
        problems: [...unnamed, { path: 'cards', message: 'must be at most 12' }],
      }),
    ).toBe('The preview shows once the form is complete: Save names what is missing.');
    // Anything else is the server's own sentence.
    expect(previewErrorText({ message: 'Too many requests.', code: 'rate_limited' })).toBe('Too many requests.');
    expect(previewErrorText(new Error('The server could not be reached.'))).toBe('The server could not be reached.');
  });
});
