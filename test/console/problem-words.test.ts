import { describe, expect, it } from 'vitest';
import { ApiError } from '../../console/src/api.js';
import { refusal } from '../../console/src/problem-words.js';

/** A refused save said in the form's words (docs/console.md). */
describe('a refusal in the words of the form', () => {
  const labels = { public_url: 'Storefront address', 'arms[].weight': 'Weight of arm', name: 'Shop name' };

  it("names the field by its label, not by the API's key, and the row of a list", () => {
    const url = new ApiError(422, 'Invalid shop: public_url must be an http(s) URL.', [
      { path: 'public_url', message: 'public_url must be an http(s) URL' },
    ]);
    expect(refusal(url, labels)).toBe('Storefront address: must be an http(s) URL.');
    const weight = new ApiError(422, 'Invalid experiment: arms[1].weight: must be more than 0.', [
      { path: 'arms[1].weight', message: 'must be more than 0' },
    ]);
    expect(refusal(weight, labels)).toBe('Weight of arm 2: must be more than 0.');
  });

  it("says an empty field for the API's null", () => {
    const days = new ApiError(422, 'Invalid settings: trending_window_days: must be a whole number or null.', [
      { path: 'trending_window_days', message: 'must be a whole number or null' },
    ]);
    expect(refusal(days, { trending_window_days: 'Trending looks back' })).toBe(
      'Trending looks back: must be a whole number, or empty for the default.',
    );
  });

  it('keeps the message of a field the form does not show, or of no field, and of any other error', () => {
    const other = new ApiError(422, 'Invalid shop: handle: cannot change.', [{ path: 'handle', message: 'x' }]);
    expect(refusal(other, labels)).toBe('Invalid shop: handle: cannot change.');
    expect(refusal(new ApiError(409, 'Taken.'), labels)).toBe('Taken.');
    expect(refusal(new Error('The server could not be reached.'), labels)).toBe('The server could not be reached.');
  });
});
