import { isVariantInStock } from '../../../src/domain/catalog/product';
import { formatMoney } from '../hooks';
import type { Product, Variant } from '../types';

/** A variant as a merchant names it: its title, or its options when the platform left the default title. */
export function variantLabel(variant: Variant): string {
  if (variant.title && variant.title !== 'Default Title') return variant.title;
  const options = [variant.option1, variant.option2, variant.option3].filter((o): o is string => Boolean(o));
  return options.length > 0 ? options.join(' / ') : variant.sku || variant.title || `Variant ${variant.id}`;
}

/** Stock by the server's own rule (docs/api.md, "Products"); a count only when every variant is counted. */
export function stockOf(product: Product): { inStock: boolean; label: string } {
  if (!product.variants.some(isVariantInStock)) return { inStock: false, label: 'Out of stock' };
  const untracked = product.variants.some((v) => isVariantInStock({ ...v, inventory_quantity: 0 }));
  if (untracked) return { inStock: true, label: 'In stock' };
  const units = product.variants.reduce((sum, v) => sum + Math.max(0, v.inventory_quantity), 0);
  return { inStock: true, label: `${units} in stock` };
}

export function priceOf(product: Product, currency: string): string {
  const prices = product.variants.map((v) => Number(v.price)).filter(Number.isFinite);
  if (prices.length === 0) return '—';
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  return low === high ? formatMoney(low, currency) : `${formatMoney(low, currency)} – ${formatMoney(high, currency)}`;
}

/** The main image; its alt is the merchant's, or empty (decorative) since the title is next to it. */
export function imageOf(product: Product): { src: string; alt: string } | null {
  const image = product.image ?? product.images?.[0];
  return image ? { src: image.src, alt: image.alt ?? '' } : null;
}

export function ProductCard({
  product,
  currency,
  onOpen,
  headingLevel = 4,
}: {
  product: Product;
  currency: string;
  onOpen?: () => void;
  headingLevel?: 2 | 3 | 4;
}) {
  const image = imageOf(product);
  const stock = stockOf(product);
  const Heading = `h${headingLevel}` as const;
  return (
    <article className="card" aria-label={product.title}>
      {image ? (
        <img src={image.src} alt={image.alt} loading="lazy" width="160" height="160" />
      ) : (
        <div className="card-noimage" aria-hidden="true" />
      )}
      <Heading className="card-title">
        {onOpen ? (
          <button type="button" className="link" onClick={onOpen}>
            {product.title}
          </button>
        ) : (
          product.title
        )}
      </Heading>
      <p className="card-price">{priceOf(product, currency)}</p>
      <p className={stock.inStock ? 'card-stock' : 'card-stock out'}>{stock.label}</p>
      <p className="muted card-id">#{product.id}</p>
    </article>
  );
}
