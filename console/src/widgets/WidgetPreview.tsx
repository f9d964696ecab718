import { useEffect, useId, useState } from 'react';
import { useConsole } from '../context';
import { ProductPicker } from '../editor/ProductPicker';
import type { Product } from '../types';
import type { WidgetInput } from './model';
import { type PageContext, pageQueryOf, previewErrorText } from './preview-page';
import { WidgetCards } from './WidgetCards';

/**
 * The design on the shop's own products, as the storefront will show it; follows every change. Lists
 * of a page's products or of a customer (similar products, for you) preview on the page chosen here.
 */
export function WidgetPreview({ draft, id }: { draft: WidgetInput; id: number }) {
  const { api, shop } = useConsole();
  const ids = useId();
  const [page, setPage] = useState<PageContext>({ products: [], customerId: '' });
  const [products, setProducts] = useState<Product[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const query = pageQueryOf(page);
  useEffect(() => {
    let live = true;
    const path = `/shops/${encodeURIComponent(shop.handle)}/widgets/preview${query}`;
    const timer = setTimeout(() => {
      api.send<{ data: Product[] }>('POST', path, draft).then(
        (r) => {
          if (!live) return;
          setProducts(r.data);
          setError(null);
        },
        (e: Error) => {
          if (!live) return;
          // What the last design showed is not what this one shows.
          setProducts(null);
          setError(previewErrorText(e));
        },
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, shop.handle, draft, query]);
  return (
    <div className="widget-preview" aria-live="polite">
      <h3>Preview on your products</h3>
      <fieldset className="widget-preview-page">
        <legend>The page it is shown on</legend>
        <span className="field-label" id={`${ids}-products`}>
          Products on the page
        </span>
        <ProductPicker
          label="Products on the page"
          value={page.products}
          onChange={(chosen) => setPage({ ...page, products: chosen })}
          describedBy={`${ids}-products`}
        />
        <label htmlFor={`${ids}-customer`}>Signed-in customer id</label>
        <input
          id={`${ids}-customer`}
          inputMode="numeric"
          value={page.customerId}
          onChange={(e) => setPage({ ...page, customerId: e.target.value })}
        />
      </fieldset>
      {error && <p className="error">{error}</p>}
      {products && products.length === 0 && (
        <p className="muted">This source has no products to show yet; the widget shows nothing until it has.</p>
      )}
      {products && products.length > 0 && (
        <WidgetCards widget={{ ...draft, id: id || 1 }} products={products} currency={shop.currency} />
      )}
    </div>
  );
}
