import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/domain/errors.js';
import { readTrackBody } from '../../../src/domain/params/track.js';

const U = '3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b';
const decoded = (body: unknown) => readTrackBody(body, (values, where) => ({ where, values }));

function problem(body: unknown): { param: string; message: string } {
  try {
    decoded(body);
  } catch (error) {
    if (error instanceof InvalidInputError) return { param: error.param, message: error.message };
    throw error;
  }
  throw new Error('no problem reported');
}

describe('readTrackBody', () => {
  it('reads nothing when the body names no events: the query string holds the event', () => {
    for (const body of [undefined, null, 'x', [1], {}, { type: 'click' }]) expect(decoded(body)).toBeNull();
  });

  it('decodes each event as the query string is, aliases included', () => {
    const [first] = decoded({
      events: [{ type: 'CLICK', uuid: U, product_id: 'gid://shopify/Product/4', shopify_customer_id: '7' }],
    })!;
    expect(first!.where).toBe('events[0]');
    expect(first!.values).toMatchObject({ type: 'click', uuid: U, product_id: 4, shop_customer_id: 7 });
  });

  it('names a problem by its path in the body', () => {
    expect(
      problem({
        events: [
          { type: 'click', uuid: U },
          { type: 'click', product_id: -3 },
        ],
      }),
    ).toEqual({
      param: 'events[1].product_id',
      message: 'Parameter events[1].product_id must be a positive integer id, got "-3".',
    });
    expect(problem({ events: [{ shopify_customer_id: 'abc' }] })).toEqual({
      param: 'events[0].shop_customer_id',
      message:
        'Parameter events[0].shop_customer_id must be a positive integer id, got "abc". (sent as shopify_customer_id)',
    });
    expect(problem({ events: [{ shop_customer_id: 3, shopify_customer_id: 4 }] })).toEqual({
      param: 'events[0].shop_customer_id',
      message:
        'events[0]: Parameters shop_customer_id and shopify_customer_id name the same thing with different values; ' +
        'send one of them.',
    });
    expect(problem({ events: [7] })).toEqual({
      param: 'events[0]',
      message: 'events[0] must be an object of event fields.',
    });
    expect(problem({ events: [] }).param).toBe('events');
  });

  it('hands each event on before reading the next, so the first problem is the one reported', () => {
    const seen: string[] = [];
    expect(() =>
      readTrackBody({ events: [{ type: 'click' }, { type: 'hover' }] }, (_values, where) => {
        seen.push(where);
        throw new Error(`refused ${where}`);
      }),
    ).toThrow('refused events[0]');
    expect(seen).toEqual(['events[0]']);
  });
});
