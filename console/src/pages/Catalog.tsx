import { LoadState } from '../components/LoadState';
import { useId } from 'react';
import { ProductCard, imageOf, stockOf, variantLabel } from '../components/ProductCard';
import { useConsole } from '../context';
import { count, formatMoney, useDebounced, useLoad } from '../hooks';
import { useKeptState } from '../kept-state';
import { usePageTitle } from '../title';
import type { Metafield, Product } from '../types';
import { TableWrap } from '../components/TableWrap';

const PAGE_SIZE = 24;

/** A search and a collection exclude each other: choosing one clears the other and goes back to page 1. */
interface ListState {
  text: string;
  collection: string;
  page: number;
}
const FIRST_PAGE: ListState = Object.freeze({ text: '', collection: '', page: 1 });

/** Search the catalog or browse a collection; open a product for its variants, stock and metafields. */
export function CatalogPage({ productId, navigate }: { productId: number | null; navigate(to: string): void }) {
  if (productId !== null) return <ProductDetail id={productId} navigate={navigate} />;
  return <CatalogList navigate={navigate} />;
}

function CatalogList({ navigate }: { navigate(to: string): void }) {
  const { api, shop, products } = useConsole();
  usePageTitle('Catalog');
  const searchId = useId();
  const collectionId = useId();
  // Kept per shop while signed in, so coming back from a product finds the list as it was.
  const [list, setList] = useKeptState(`catalog.list:${shop.handle}`, FIRST_PAGE);
  const { text, collection, page } = list;
  const setText = (value: string) => setList({ text: value, collection: '', page: 1 });
  const setCollection = (value: string) => setList({ text: '', collection: value, page: 1 });
  const setPage = (value: number) => setList({ ...list, page: value });
  const settled = useDebounced(text.trim(), 250);
  const collections = useLoad(() => products.listCollections(), [products]);
  const base = `/shops/${encodeURIComponent(shop.handle)}/products`;

  const result = useLoad(
    async () => {
      if (collection !== '') {
        const members = (collections.data ?? []).find((c) => String(c.id) === collection)?.products ?? [];
        const ids = [...members].sort((a, b) => a.position - b.position).map((m) => m.product_id);
        const slice = ids.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
        const answer = slice.length
          ? await api.get<{ data: Product[] }>(`${base}?ids=${slice.join(',')}&limit=250`)
          : { data: [] };
        return { data: answer.data, total: ids.length };
      }
      const answer = await api.get<{ data: Product[]; total: number }>(
        `${base}?limit=${PAGE_SIZE}&page=${page}${settled ? `&query=${encodeURIComponent(settled)}` : ''}`,
      );
      return answer;
    },
    [base, settled, collection, page, collections.data],
    { keepPrevious: true },
  );
  const pages = result.data ? Math.max(1, Math.ceil(result.data.total / PAGE_SIZE)) : 1;

  return (
    <section aria-labelledby="catalog-heading">
      <h1 id="catalog-heading">Catalog</h1>
      <div className="filters">
        <div className="field">
          <label htmlFor={searchId}>Search products</label>
          <input
            id={searchId}
            type="search"
            value={text}
            placeholder="Title, handle or id"
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={collectionId}>Collection</label>
          <select id={collectionId} value={collection} onChange={(e) => setCollection(e.target.value)}>
            <option value="">All products</option>
            {(collections.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.title} ({c.products.length})
              </option>
            ))}
          </select>
        </div>
      </div>
      {result.error !== null && <LoadState loaded={result} what="the products" />}
      {collections.error !== null && <LoadState loaded={collections} what="the collections" />}
      <p className="status" aria-live="polite">
        {result.loading ? 'Loading products…' : result.data ? count(result.data.total, 'product') : ''}
      </p>
      {result.data && (
        <>
          <ul className="cards" aria-label="Products">
            {result.data.data.map((product) => (
              <li key={product.id}>
                <ProductCard
                  product={product}
                  currency={shop.currency}
                  headingLevel={2}
                  onOpen={() => navigate(`/catalog/${product.id}`)}
                />
              </li>
            ))}
          </ul>
          {pages > 1 && (
            <nav className="pager" aria-label="Pages">
              {/* aria-disabled rather than disabled: the button pressed last keeps focus at the first or last page. */}
              <button
                type="button"
                aria-disabled={page <= 1}
                onClick={() => {
                  if (page > 1) setPage(page - 1);
                }}
              >
                Previous
              </button>
              <span>
                Page {page} of {pages}
              </span>
              <button
                type="button"
                aria-disabled={page >= pages}
                onClick={() => {
                  if (page < pages) setPage(page + 1);
                }}
              >
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}

function ProductDetail({ id, navigate }: { id: number; navigate(to: string): void }) {
  const { api, shop } = useConsole();
  const loaded = useLoad(
    () =>
      api
        .get<{ data: Product[] }>(`/shops/${encodeURIComponent(shop.handle)}/products?ids=${id}`)
        .then((r) => r.data[0] ?? null),
    [id, shop.handle],
  );
  usePageTitle(loaded.data ? `${loaded.data.title} — Catalog` : `Product ${id} — Catalog`);
  const back = (
    <button type="button" className="link" onClick={() => navigate('/catalog')}>
      ← Catalog
    </button>
  );
  if (loaded.loading || loaded.error)
    return (
      <>
        {back}
        <LoadState loaded={loaded} what="this product" />
      </>
    );
  const product = loaded.data;
  if (!product)
    return (
      <>
        {back}
        <p role="alert">Product {id} was not found in this shop.</p>
      </>
    );
  const image = imageOf(product);
  const stock = stockOf(product);
  return (
    <article aria-labelledby="product-heading" className="product-detail">
      {back}
      <h1 id="product-heading">{product.title}</h1>
      <div className="product-top">
        {image && <img src={image.src} alt={image.alt || product.title} width="240" height="240" />}
        <dl className="facts">
          <dt>Id</dt>
          <dd>{product.id}</dd>
          <dt>Handle</dt>
          <dd>{product.handle}</dd>
          <dt>Status</dt>
          <dd>
            {product.status ?? 'active'}
            {product.published_at ? '' : ' (unpublished)'}
          </dd>
          <dt>Vendor</dt>
          <dd>{product.vendor || '—'}</dd>
          <dt>Type</dt>
          <dd>{product.product_type || '—'}</dd>
          <dt>Tags</dt>
          <dd>{product.tags || '—'}</dd>
          <dt>Stock</dt>
          <dd>{stock.label}</dd>
        </dl>
      </div>
      <h2>Variants</h2>
      <TableWrap>
        <table>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Title</th>
              <th scope="col">SKU</th>
              <th scope="col">Price</th>
              <th scope="col">Compare at</th>
              <th scope="col">Inventory</th>
              <th scope="col">Policy</th>
            </tr>
          </thead>
          <tbody>
            {product.variants.map((v) => (
              <tr key={v.id}>
                <td>{v.id}</td>
                <td>{variantLabel(v)}</td>
                <td>{v.sku ?? '—'}</td>
                <td>{formatMoney(v.price, shop.currency)}</td>
                <td>{v.compare_at_price ? formatMoney(v.compare_at_price, shop.currency) : '—'}</td>
                <td>{v.inventory_management ? (v.inventory_quantity ?? 0) : 'not tracked'}</td>
                <td>{v.inventory_policy ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <Neighbours productId={product.id} navigate={navigate} />
      <h2>Metafields</h2>
      <Metafields list={product.metafields ?? []} />
      {product.variants.some((v) => (v.metafields ?? []).length > 0) && (
        <>
          <h2>Variant metafields</h2>
          {product.variants
            .filter((v) => (v.metafields ?? []).length > 0)
            .map((v) => (
              <section key={v.id}>
                <h3>{v.title}</h3>
                <Metafields list={v.metafields ?? []} />
              </section>
            ))}
        </>
      )}
    </article>
  );
}

interface Neighbour {
  product_id: number;
  score: number;
  co_occurrences: number;
}

/** The products bought by the same customers (the model's raw material), with how many customers bought both. */
function Neighbours({ productId, navigate }: { productId: number; navigate(to: string): void }) {
  const { api, shop } = useConsole();
  const base = `/shops/${encodeURIComponent(shop.handle)}`;
  const loaded = useLoad(async () => {
    const answer = await api.get<{ data: Neighbour[]; model: { users: number } }>(
      `${base}/models/similar?product_id=${productId}&similarity=jaccard&limit=10`,
    );
    const ids = answer.data.map((n) => n.product_id);
    const titles = ids.length ? (await api.get<{ data: Product[] }>(`${base}/products?ids=${ids.join(',')}`)).data : [];
    return { ...answer, titles: new Map(titles.map((p) => [p.id, p.title])) };
  }, [base, productId]);
  return (
    <section aria-labelledby="neighbours-heading">
      <h2 id="neighbours-heading">Bought by the same customers</h2>
      <LoadState loaded={loaded} what="the products bought by the same customers" />
      {loaded.data && loaded.data.data.length === 0 && (
        <p className="muted">No customer bought this product together with another one yet.</p>
      )}
      {loaded.data && loaded.data.data.length > 0 && (
        <TableWrap>
          <table aria-describedby="neighbours-note">
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Customers who bought both</th>
                <th scope="col">Similarity (Jaccard)</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data.data.map((n) => (
                <tr key={n.product_id}>
                  <td>
                    <button type="button" className="link" onClick={() => navigate(`/catalog/${n.product_id}`)}>
                      {loaded.data!.titles.get(n.product_id) ?? `Product ${n.product_id}`}
                    </button>
                  </td>
                  <td>{n.co_occurrences}</td>
                  <td>{n.score.toFixed(3)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p id="neighbours-note" className="muted">
            Out of {count(loaded.data.model.users, 'customer')} with orders; Jaccard = customers who bought both ÷
            customers who bought either.
          </p>
        </TableWrap>
      )}
    </section>
  );
}

function Metafields({ list }: { list: Metafield[] }) {
  if (list.length === 0) return <p className="muted">None.</p>;
  return (
    <TableWrap>
      <table>
        <thead>
          <tr>
            <th scope="col">Namespace</th>
            <th scope="col">Key</th>
            <th scope="col">Value</th>
            <th scope="col">Type</th>
          </tr>
        </thead>
        <tbody>
          {list.map((m) => (
            <tr key={`${m.namespace}.${m.key}`}>
              <td>{m.namespace}</td>
              <td>{m.key}</td>
              <td>{m.value}</td>
              <td>{m.value_type}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
