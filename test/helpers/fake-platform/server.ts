import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { FakeCatalog, type Json, type ShopShape, gid } from './catalog.js';
import { bulkLines, edges, inlineOrder, inlineProduct } from './jsonl.js';

/** The GraphQL operations the fake answers, found by name in the query text. */
const OPERATIONS = new RegExp(
  [
    'bulkOperationRunQuery',
    'currentBulkOperation',
    'webhookSubscriptionCreate',
    'webhookSubscriptionDelete',
    'webhookSubscriptions',
    'nodes\\(ids',
    'node\\(id',
    'order\\(id',
    'products\\(first',
    'customers\\(first',
    'orders\\(first',
  ].join('|'),
);

/**
 * A local stand-in for the storefront platform's GraphQL Admin API, written from its documentation:
 * `POST /admin/api/{version}/graphql.json` with `X-Shopify-Access-Token`; bulk operations
 * (`bulkOperationRunQuery`, `node(id:)` / `currentBulkOperation` through CREATED → RUNNING →
 * COMPLETED or FAILED with an `errorCode`, the JSONL file at `url`); cost-based throttling
 * (`extensions.cost.throttleStatus`, `THROTTLED` errors); webhook subscriptions; paginated queries
 * with `query: "updated_at:>'…'"`; `nodes(ids:)` answering null for what does not exist. Faults on demand.
 */
export const FAKE_PLATFORM_TOKEN = 'shpat_fake_platform_token_0123456789';

export type PlatformFault = 'throttled' | 401 | 429 | 500 | 503;

interface BulkOperation {
  id: string;
  status: string;
  resource: string;
  ordersSince: number;
  polls: number;
  errorCode: string | null;
}

export interface FakePlatformOptions {
  shape?: Partial<ShopShape>;
  /** The bucket: points, restored per second, and what one query costs. */
  maximumAvailable?: number;
  restoreRate?: number;
  queryCost?: number;
  /** Status polls a bulk operation stays RUNNING for. */
  pollsToComplete?: number;
}

const DEFAULT_SHAPE: ShopShape = {
  products: 20,
  variantsPerProduct: 3,
  imagesPerProduct: 2,
  metafieldsPerProduct: 2,
  collections: 4,
  customers: 10,
  orders: 40,
};

export class FakePlatform {
  readonly catalog: FakeCatalog;
  readonly faults: PlatformFault[] = [];
  readonly stats = { requests: 0, throttled: 0, bulkRuns: 0, operations: new Map<string, number>() };
  readonly webhooks = new Map<string, { id: string; topic: string; uri: string }>();
  /** The next bulk operation ends FAILED with this error code. */
  failNextBulk: string | null = null;
  /** The next export file is refused as an expired signed storage URL is: a 403 with an XML body. */
  refuseNextFile = false;
  /** A connection (`webhookSubscriptions`, `products` …) answered as a looping platform would: the same cursor. */
  repeatCursorOf: string | null = null;
  /** A connection answered as an endless one: always a next page, behind a new cursor of this many bytes. */
  endless: { field: string; cursorBytes: number } | null = null;
  /** Bulk operations report this status instead of finishing (a state the documentation does not list). */
  bulkStatus: string | null = null;
  /** Lines written after the products of the next products export file (odd lines a platform could write). */
  extraProductLines: string[] = [];
  /** While set, `order(id:)` is answered only once it resolves (a platform slow to answer). */
  orderGate: Promise<void> | null = null;
  token = FAKE_PLATFORM_TOKEN;
  private readonly bulk = new Map<string, BulkOperation>();
  private lastBulk: BulkOperation | null = null;
  private nextId = 1;
  private bucket: { available: number; at: number };
  private server: Server | null = null;
  url = '';

  constructor(readonly options: FakePlatformOptions = {}) {
    this.catalog = new FakeCatalog({ ...DEFAULT_SHAPE, ...options.shape });
    this.bucket = { available: options.maximumAvailable ?? 2000, at: Date.now() };
  }

  /** `api_url` of the connection: `{origin}/admin/api/2025-10`. */
  get apiUrl(): string {
    return `${this.url}/admin/api/2025-10`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res).catch(() => res.destroy()));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0]!;
    const file = /^\/files\/(\d+)\.jsonl$/.exec(path);
    if (req.method === 'GET' && file) return this.serveFile(file[1]!, res);
    if (req.method !== 'POST' || !/^\/admin\/api\/\d{4}-\d{2}\/graphql\.json$/.test(path))
      return send(res, 404, { errors: 'Not Found' });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    this.stats.requests++;
    if (req.headers['x-shopify-access-token'] !== this.token)
      return send(res, 401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    const fault = this.faults.shift();
    if (fault === 401)
      return send(res, 401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    if (fault === 429)
      return send(
        res,
        429,
        { errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.' },
        { 'retry-after': '1' },
      );
    if (fault === 500 || fault === 503) return send(res, fault, { errors: 'Internal Server Error' });
    const { query, variables = {} } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      query: string;
      variables?: Json;
    };
    const cost = this.options.queryCost ?? 10;
    const status = this.take(fault === 'throttled' ? Number.POSITIVE_INFINITY : cost);
    const extensions = {
      cost: { requestedQueryCost: cost, actualQueryCost: status.ok ? cost : null, throttleStatus: status.throttle },
    };
    if (!status.ok) {
      this.stats.throttled++;
      return send(res, 200, {
        errors: [
          {
            message: 'Throttled',
            extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
          },
        ],
        extensions,
      });
    }
    if (this.orderGate && OPERATIONS.exec(query)?.[0] === 'order(id') await this.orderGate;
    const data = this.execute(query, variables);
    send(res, 200, { data, extensions });
  }

  /** Restores the bucket for the time passed, then takes `cost` points if they are there. */
  private take(cost: number) {
    const max = this.options.maximumAvailable ?? 2000;
    const rate = this.options.restoreRate ?? 100;
    const now = Date.now();
    this.bucket = { available: Math.min(max, this.bucket.available + ((now - this.bucket.at) / 1000) * rate), at: now };
    const ok = this.bucket.available >= cost;
    if (ok) this.bucket.available -= cost;
    return {
      ok,
      throttle: { maximumAvailable: max, currentlyAvailable: Math.floor(this.bucket.available), restoreRate: rate },
    };
  }

  private count(operation: string): void {
    this.stats.operations.set(operation, (this.stats.operations.get(operation) ?? 0) + 1);
  }

  private execute(query: string, variables: Json): Json {
    const operation = OPERATIONS.exec(query)?.[0] ?? 'unknown';
    this.count(operation);
    switch (operation) {
      case 'bulkOperationRunQuery':
        return { bulkOperationRunQuery: this.runBulk(String(variables.query)) };
      case 'currentBulkOperation':
        return { currentBulkOperation: this.lastBulk ? this.view(this.lastBulk) : null };
      case 'node(id': {
        const op = this.bulk.get(String(variables.id));
        if (op) this.advance(op);
        return { node: op ? this.view(op) : null };
      }
      case 'webhookSubscriptions':
        return this.looping('webhookSubscriptions', {
          webhookSubscriptions: {
            ...edges([...this.webhooks.values()]),
            pageInfo: { hasNextPage: false, endCursor: null },
          },
        });
      case 'webhookSubscriptionCreate': {
        const subscription = {
          id: gid('WebhookSubscription', this.nextId++),
          topic: String(variables.topic),
          uri: String(variables.uri),
        };
        this.webhooks.set(subscription.id, subscription);
        return { webhookSubscriptionCreate: { webhookSubscription: subscription, userErrors: [] } };
      }
      case 'webhookSubscriptionDelete': {
        const deleted = this.webhooks.delete(String(variables.id));
        return {
          webhookSubscriptionDelete: {
            deletedWebhookSubscriptionId: deleted ? variables.id : null,
            userErrors: deleted ? [] : [{ field: ['id'], message: 'Webhook subscription does not exist' }],
          },
        };
      }
      case 'nodes(ids':
        return { nodes: (variables.ids as string[]).map((id) => (this.exists(id) ? { id } : null)) };
      case 'order(id': {
        const o = Number(String(variables.id).split('/').pop());
        return { order: o >= 1 && o <= this.catalog.shape.orders ? inlineOrder(this.catalog, o) : null };
      }
      default:
        return this.looping(operation.split('(')[0]!, this.page(operation, variables));
    }
  }

  /** The answer of a connection, its page info replaced by a loop's when `repeatCursorOf` names it. */
  private looping(field: string, answer: Json): Json {
    const page = answer[field] as Json;
    if (this.endless?.field === field) {
      const fresh = `${++this.endlessPages}-`.padEnd(this.endless.cursorBytes, 'c');
      return { [field]: { ...page, pageInfo: { hasNextPage: true, endCursor: fresh } } };
    }
    if (this.repeatCursorOf !== field) return answer;
    return { [field]: { ...page, pageInfo: { hasNextPage: true, endCursor: 'the-same-cursor' } } };
  }
  private endlessPages = 0;

  private exists(id: string): boolean {
    const [, type, n] = /\/(\w+)\/(\d+)$/.exec(id) ?? [];
    const i = Number(n);
    if (type === 'Product') return i >= 1 && i <= this.catalog.shape.products && !this.catalog.deleted.has(i);
    if (type === 'Customer') return i >= 1 && i <= this.catalog.shape.customers;
    return true;
  }

  /** A page of 50 (250 for bare ids) after the cursor (the last index), filtered by `updated_at:>'…'`. */
  private page(operation: string, variables: Json): Json {
    const since = /updated_at:>'([^']+)'/.exec(String(variables.query ?? ''))?.[1];
    const after = variables.after ? Number(variables.after) : 0;
    const resource = operation.split('(')[0]!;
    const total =
      resource === 'products'
        ? this.catalog.shape.products
        : resource === 'customers'
          ? this.catalog.shape.customers
          : this.catalog.shape.orders;
    const size = variables.query === undefined ? 250 : 50;
    const nodes: Json[] = [];
    let last = after;
    for (let i = after + 1; i <= total && nodes.length < size; i++) {
      last = i;
      if (resource === 'products' && this.catalog.deleted.has(i)) continue;
      const node =
        resource === 'products'
          ? variables.query === undefined
            ? { id: gid('Product', i) }
            : inlineProduct(this.catalog, i)
          : resource === 'customers'
            ? this.catalog.customer(i)
            : inlineOrder(this.catalog, i);
      if (
        since &&
        variables.query !== undefined &&
        Date.parse(
          resource === 'products' ? new Date(this.catalog.productUpdatedAt(i)).toISOString() : node.updatedAt,
        ) <= Date.parse(since)
      )
        continue;
      nodes.push(node);
    }
    const hasNextPage = last < total;
    return { [resource]: { ...edges(nodes), pageInfo: { hasNextPage, endCursor: hasNextPage ? String(last) : null } } };
  }

  private runBulk(query: string): Json {
    if (this.lastBulk && (this.lastBulk.status === 'CREATED' || this.lastBulk.status === 'RUNNING')) {
      return {
        bulkOperation: null,
        userErrors: [
          { field: ['query'], message: 'A bulk query operation for this app and shop is already in progress.' },
        ],
      };
    }
    this.stats.bulkRuns++;
    const resource = /^\s*\{\s*(\w+)/.exec(query)?.[1] ?? '';
    const since = /created_at:>='([^']+)'/.exec(query)?.[1];
    const op: BulkOperation = {
      id: gid('BulkOperation', this.nextId++),
      status: 'CREATED',
      resource,
      ordersSince: since ? Date.parse(since) : 0,
      polls: 0,
      errorCode: null,
    };
    if (this.failNextBulk) {
      op.errorCode = this.failNextBulk;
      this.failNextBulk = null;
    }
    this.bulk.set(op.id, op);
    this.lastBulk = op;
    return { bulkOperation: { id: op.id, status: op.status }, userErrors: [] };
  }

  private advance(op: BulkOperation): void {
    if (op.status !== 'CREATED' && op.status !== 'RUNNING') return;
    op.polls++;
    if (this.bulkStatus) {
      op.status = this.bulkStatus;
      return;
    }
    if (op.polls < (this.options.pollsToComplete ?? 2)) op.status = 'RUNNING';
    else op.status = op.errorCode ? 'FAILED' : 'COMPLETED';
  }

  private view(op: BulkOperation): Json {
    const completed = op.status === 'COMPLETED';
    const empty = completed && bulkLines(this.catalog, op.resource, op.ordersSince).next().done === true;
    return {
      id: op.id,
      status: op.status,
      errorCode: op.errorCode,
      objectCount: '0',
      rootObjectCount: '0',
      url: completed && !empty ? `${this.url}/files/${op.id.split('/').pop()}.jsonl` : null,
      partialDataUrl: null,
    };
  }

  private serveFile(id: string, res: ServerResponse): void {
    if (this.refuseNextFile) {
      this.refuseNextFile = false;
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end("<?xml version='1.0' encoding='UTF-8'?><Error><Code>AccessDenied</Code></Error>");
      return;
    }
    const op = this.bulk.get(gid('BulkOperation', Number(id)));
    if (op?.status !== 'COMPLETED') {
      send(res, 404, { errors: 'Not Found' });
      return;
    }
    res.writeHead(200, { 'content-type': 'application/jsonl' });
    const extra = op.resource === 'products' ? this.extraProductLines.splice(0) : [];
    const lines = [...bulkLines(this.catalog, op.resource, op.ordersSince), ...extra];
    Readable.from(
      (function* () {
        for (const line of lines) yield `${line}\n`;
      })(),
    ).pipe(res);
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
