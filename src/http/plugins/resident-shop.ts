import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CatalogIndex } from '../../indexes/catalog-index.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False on public routes that never read the shop's catalog (the event intake): no load, no pin. */
    readsCatalog?: boolean;
  }
  interface FastifyRequest {
    /** Ends the request's hold on its shop's read model (set while the request holds one). */
    releaseShop: (() => void) | null;
  }
}

function release(request: FastifyRequest): void {
  request.releaseShop?.();
  request.releaseShop = null;
}

/**
 * Public API routes: once the key names the shop, its read model is loaded (or a load in flight
 * is waited for) and pinned until the answer is sent, so eviction cannot take it mid-request.
 * Register after the key check. A resident shop costs no promise here: the hot path stays sync.
 */
export function registerResidentShop(app: FastifyInstance, catalog: CatalogIndex): void {
  app.decorateRequest('releaseShop', null);
  app.decorateRequest('catalog', null);
  app.decorateRequest('shop', null);
  app.addHook('preValidation', (request, _reply, done) => {
    const shopId = request.apiKey?.shopId;
    if (shopId === undefined) return done();
    if (request.routeOptions.config.readsCatalog === false) {
      // The shop's settings (its rate limits) are still needed, not its catalog.
      const reading = catalog.ensureSettings(shopId);
      if (!reading) return done();
      reading.then(
        () => done(),
        (error: Error) => done(error),
      );
      return;
    }
    const hold = catalog.hold(shopId);
    request.releaseShop = hold.release;
    const pin = () => {
      request.catalog = catalog.get(shopId) ?? null;
      request.shop = request.catalog?.shop ?? null;
    };
    if (!hold.ready) {
      pin();
      return done();
    }
    hold.ready.then(
      () => {
        pin();
        done();
      },
      (error: Error) => done(error),
    );
  });
  app.addHook('onResponse', (request, _reply, done) => {
    release(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    release(request);
    done();
  });
}
