/** A collection and its members in position order (docs/api.md, "Admin API"). */
export interface Collection {
  id: number;
  title: string;
  handle: string;
  updated_at: string;
  products: { product_id: number; position: number }[];
}

/** A storefront customer, for customer-tag rules and personalization. */
export interface Customer {
  id: number;
  email: string | null;
  tags: string[];
}

export interface OrderLine {
  order_id: number;
  product_id: number;
  variant_id: number | null;
  quantity: number;
  price: string;
  customer_id: number | null;
  created_at: number; // epoch ms
}

export interface Order {
  id: number;
  customer_id: number | null;
  created_at: number;
  cancelled_at: number | null;
  updated_at: number;
  lines: Omit<OrderLine, 'order_id' | 'customer_id' | 'created_at'>[];
}
