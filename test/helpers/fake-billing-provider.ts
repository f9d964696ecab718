import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nextIntervalDate } from '../../src/domain/billing/dates.js';

/**
 * A local stand-in for the billing provider's REST API, version 2021-11: a real HTTP server on
 * port 0 implementing the endpoints Rebound calls, from their documented shapes. It checks the
 * token and version headers, records every request, and misbehaves on demand.
 */
export const FAKE_TOKEN = 'fake-provider-token-0123456789';

/* biome-ignore lint/suspicious/noExplicitAny: the fake reads and writes the provider's loose JSON documents, as the
   real one does */
type Json = Record<string, any>;
const NOT_FOUND = { errors: 'Not found' };
export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string }
  /** Answers after `ms` (past Rebound's timeout); with `apply`, the write happens first. */
  | { kind: 'slow'; ms: number; apply?: boolean }
  /** Closes the connection without an answer; with `apply`, after the write happened. */
  | { kind: 'drop'; apply?: boolean }
  /**
   * Answers 200 with this body instead (a provider answering a shape its documentation does not);
   * with `apply`, after the write happened.
   */
  | { kind: 'answer'; body: unknown; apply?: boolean };

export interface Received {
  method: string;
  path: string;
  token: string | undefined;
  version: string | undefined;
  body: Json | null;
  at: number;
}

const iso = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
const today = () => new Date().toISOString().slice(0, 10);

export class FakeBillingProvider {
  readonly received: Received[] = [];
  readonly customers = new Map<number, Json>();
  readonly subscriptions = new Map<number, Json>();
  readonly addresses = new Map<number, Json>();
  readonly charges = new Map<number, Json>();
  readonly onetimes = new Map<number, Json>();
  /** Storefront variants the provider knows: id → product id, title, price. */
  readonly variants = new Map<number, { product: number; title: string; variant: string; price: string }>();
  readonly discountCodes = new Set<string>();
  private faults: { match: RegExp; fault: Fault; times: number }[] = [];
  private nextId = 90_000;
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Misbehaves on the next `times` requests whose "METHOD /path" matches. */
  fail(match: RegExp, fault: Fault, times = 1): void {
    this.faults.push({ match, fault, times });
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** Requests received whose "METHOD /path?query" matches. */
  calls(match: RegExp): Received[] {
    return this.received.filter((r) => match.test(`${r.method} ${r.path}`));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? (JSON.parse(text) as Json) : null;
    const path = req.url ?? '/';
    const header = (name: string) =>
      typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined;
    this.received.push({
      method: req.method ?? '',
      path,
      token: header('x-recharge-access-token'),
      version: header('x-recharge-version'),
      body,
      at: Date.now(),
    });
    const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(json === undefined ? '' : JSON.stringify(json));
    };
    if (header('x-recharge-access-token') !== FAKE_TOKEN)
      return send(401, { errors: 'A valid API token is required.' });
    if (header('x-recharge-version') !== '2021-11') return send(400, { errors: 'Unsupported API version.' });

    const slot = this.faults.find((f) => f.times > 0 && f.match.test(`${req.method} ${path}`));
    if (slot) slot.times--;
    const fault = slot?.fault;
    if (fault?.kind === 'answer') {
      if (fault.apply) this.route(req.method ?? 'GET', new URL(path, 'http://fake'), body);
      return send(200, fault.body);
    }
    if (fault?.kind === 'status')
      return send(
        fault.status,
        { errors: 'fault on demand' },
        fault.retryAfter ? { 'retry-after': fault.retryAfter } : {},
      );
    if (fault && !fault.apply) {
      if (fault.kind === 'drop') return void req.socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, fault.ms));
    }
    const [status, answer] = this.route(req.method ?? 'GET', new URL(path, 'http://fake'), body);
    if (fault?.kind === 'drop') return void req.socket.destroy();
    if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.ms));
    if (!res.destroyed) send(status, answer);
  }

  /** The vendor counts a customer's subscriptions when it answers: they follow every change. */
  private tallied(customer: Json): Json {
    const theirs = [...this.subscriptions.values()].filter((s) => s.customer_id === customer.id);
    return {
      ...customer,
      subscriptions_active_count: theirs.filter((s) => s.status === 'active').length,
      subscriptions_total_count: theirs.length,
    };
  }

  private route(method: string, url: URL, body: Json | null): [number, unknown] {
    const parts = url.pathname.split('/').filter(Boolean);
    const id = Number(parts[1]);
    const q = (name: string) => url.searchParams.get(name);
    const one = (map: Map<number, Json>, key: string): [number, unknown] =>
      map.has(id) ? [200, { [key]: map.get(id) }] : [404, NOT_FOUND];
    const route = `${method} /${parts[0]}${parts.length > 1 ? '/:id' : ''}${parts[2] ? `/${parts[2]}` : ''}`;
    switch (route) {
      case 'GET /customers/:id':
        return this.customers.has(id) ? [200, { customer: this.tallied(this.customers.get(id)!) }] : [404, NOT_FOUND];
      case 'GET /subscriptions':
        return [
          200,
          {
            subscriptions: [...this.subscriptions.values()].filter((s) =>
              q('address_id') !== null
                ? s.address_id === Number(q('address_id'))
                : s.customer_id === Number(q('customer_id')),
            ),
            next_cursor: null,
          },
        ];
      case 'POST /subscriptions':
        return this.createSubscription(body ?? {});
      case 'GET /subscriptions/:id':
        return one(this.subscriptions, 'subscription');
      case 'POST /subscriptions/:id/activate':
        return this.activate(id);
      case 'GET /addresses/:id':
        return one(this.addresses, 'address');
      case 'POST /addresses/:id/apply_discount':
        return this.applyDiscount(id, String(body?.discount_code ?? ''));
      case 'GET /charges':
        return [200, { charges: this.listCharges(Number(q('address_id')), q('status')) }];
      case 'GET /charges/:id':
        return one(this.charges, 'charge');
      case 'POST /charges/:id/process':
        return this.process(id);
      case 'GET /onetimes':
        return [200, { onetimes: [...this.onetimes.values()].filter((o) => o.address_id === Number(q('address_id'))) }];
      case 'GET /onetimes/:id':
        return one(this.onetimes, 'onetime');
      case 'POST /onetimes':
        return this.createOnetime(body ?? {});
      case 'DELETE /onetimes/:id':
        return this.deleteOnetime(id);
      default:
        return [404, { errors: `No route ${method} ${url.pathname}` }];
    }
  }

  private activate(id: number): [number, unknown] {
    const sub = this.subscriptions.get(id);
    if (!sub) return [404, { errors: 'Not found' }];
    if (sub.status === 'active') return [422, { errors: 'The subscription is already active.' }];
    const next = nextIntervalDate(today(), String(sub.order_interval_frequency), sub.order_interval_unit);
    Object.assign(sub, {
      status: 'active',
      cancelled_at: null,
      cancellation_reason: null,
      cancellation_reason_comments: null,
      next_charge_scheduled_at: next,
      updated_at: iso(),
    });
    return [200, { subscription: sub }];
  }

  private applyDiscount(id: number, code: string): [number, unknown] {
    const address = this.addresses.get(id);
    if (!address) return [404, { errors: 'Not found' }];
    if (!this.discountCodes.has(code)) return [422, { errors: { discount_code: 'Discount code not found.' } }];
    Object.assign(address, { discounts: [{ id: this.nextId++ }], updated_at: iso() });
    return [200, { address }];
  }

  private listCharges(addressId: number, status: string | null): Json[] {
    return [...this.charges.values()]
      .filter((c) => c.address_id === addressId && (!status || c.status === status))
      .sort((a, b) => String(a.scheduled_at).localeCompare(String(b.scheduled_at)) || a.id - b.id);
  }

  private process(id: number): [number, unknown] {
    const charge = this.charges.get(id);
    if (!charge) return [404, { errors: 'Not found' }];
    if (charge.status !== 'queued') return [422, { errors: 'Only a queued charge can be processed.' }];
    const customer = this.customers.get(charge.customer.id)!;
    if (customer.has_valid_payment_method) {
      Object.assign(charge, {
        status: 'success',
        processed_at: iso(),
        updated_at: iso(),
        external_order_id: { ecommerce: String(this.nextId++) },
      });
    } else {
      Object.assign(charge, {
        status: 'error',
        error: 'Card declined: the card has expired',
        error_type: 'CUSTOMER_NEEDS_TO_UPDATE_CARD',
        updated_at: iso(),
      });
    }
    return [200, { charge }];
  }

  /** `POST /subscriptions` (2021-11): address, variant, first charge date, quantity and the intervals are required. */
  private createSubscription(body: Json): [number, unknown] {
    const address = this.addresses.get(Number(body.address_id));
    const variantId = Number(body.external_variant_id?.ecommerce);
    const variant = this.variants.get(variantId);
    if (!address) return [422, { errors: { address_id: 'Address not found.' } }];
    const units = ['day', 'week', 'month'];
    const frequencies = [body.order_interval_frequency, body.charge_interval_frequency].map(Number);
    if (
      !variant ||
      !/^\d{4}-\d{2}-\d{2}$/.test(String(body.next_charge_scheduled_at)) ||
      !(Number(body.quantity) >= 1)
    ) {
      return [422, { errors: 'external_variant_id, next_charge_scheduled_at and quantity are required.' }];
    }
    if (!units.includes(String(body.order_interval_unit)) || frequencies.some((f) => !(f >= 1 && f <= 1000))) {
      return [
        422,
        { errors: 'order_interval_unit, order_interval_frequency and charge_interval_frequency are required.' },
      ];
    }
    const subscription = {
      id: this.nextId++,
      address_id: address.id,
      customer_id: address.customer_id,
      external_product_id: { ecommerce: String(variant.product) },
      external_variant_id: { ecommerce: String(variantId) },
      status: 'active',
      quantity: Number(body.quantity),
      price: variant.price,
      product_title: variant.title,
      variant_title: variant.variant,
      next_charge_scheduled_at: body.next_charge_scheduled_at,
      order_interval_unit: body.order_interval_unit,
      order_interval_frequency: frequencies[0],
      charge_interval_frequency: frequencies[1],
      properties: body.properties ?? [],
      cancelled_at: null,
      created_at: iso(),
      updated_at: iso(),
      sku: null,
      sku_override: false,
    };
    this.subscriptions.set(subscription.id, subscription);
    return [200, { subscription }];
  }

  private createOnetime(body: Json): [number, unknown] {
    const address = this.addresses.get(Number(body.address_id));
    const variantId = Number(body.external_variant_id?.ecommerce);
    const variant = this.variants.get(variantId);
    if (!address) return [422, { errors: { address_id: 'Address not found.' } }];
    if (
      !variant ||
      !/^\d{4}-\d{2}-\d{2}$/.test(String(body.next_charge_scheduled_at)) ||
      !(Number(body.quantity) >= 1)
    ) {
      return [422, { errors: 'external_variant_id, next_charge_scheduled_at and quantity are required.' }];
    }
    const onetime = {
      id: this.nextId++,
      address_id: address.id,
      customer_id: address.customer_id,
      external_product_id: { ecommerce: String(variant.product) },
      external_variant_id: { ecommerce: String(variantId) },
      quantity: Number(body.quantity),
      price: variant.price,
      product_title: variant.title,
      variant_title: variant.variant,
      next_charge_scheduled_at: body.next_charge_scheduled_at,
      is_cancelled: false,
      properties: body.properties ?? [],
      created_at: iso(),
      updated_at: iso(),
      presentment_currency: 'USD',
      sku: null,
      sku_override: false,
    };
    this.onetimes.set(onetime.id, onetime);
    // The purchase joins the address's queued charge of that date, or a new one.
    let charge = this.listCharges(address.id, 'queued').find(
      (c) => String(c.scheduled_at).slice(0, 10) === onetime.next_charge_scheduled_at,
    );
    if (!charge) {
      charge = {
        id: this.nextId++,
        address_id: address.id,
        customer: { id: address.customer_id },
        status: 'queued',
        scheduled_at: `${onetime.next_charge_scheduled_at}T00:00:00`,
        processed_at: null,
        line_items: [],
        total_price: '0.00',
        updated_at: iso(),
      };
      this.charges.set(charge.id, charge);
    }
    charge.line_items = [
      ...(charge.line_items ?? []),
      {
        purchase_item_id: onetime.id,
        purchase_item_type: 'onetime',
        external_product_id: onetime.external_product_id,
        external_variant_id: onetime.external_variant_id,
        quantity: onetime.quantity,
        unit_price: onetime.price,
        title: onetime.product_title,
      },
    ];
    charge.total_price = (charge.line_items as Json[])
      .reduce((sum, li) => sum + Number(li.unit_price) * li.quantity, 0)
      .toFixed(2);
    return [201, { onetime }];
  }

  private deleteOnetime(id: number): [number, unknown] {
    if (!this.onetimes.delete(id)) return [404, { errors: 'Not found' }];
    for (const charge of this.charges.values())
      charge.line_items = (charge.line_items ?? []).filter((li: Json) => li.purchase_item_id !== id);
    return [204, undefined];
  }
}
