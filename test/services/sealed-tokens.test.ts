import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compose } from '../../src/compose.js';
import { loadConfig } from '../../src/config/config.js';
import { backends } from '../helpers/backends.js';
import { connectBody } from '../helpers/fake-platform/connect.js';
import { FakePlatform } from '../helpers/fake-platform/server.js';

const SERVERS_KEY = '1f'.repeat(32);
const OTHER_KEY = '2e'.repeat(32);

function composeWith(url: string, key: string) {
  return compose(
    loadConfig({
      DATABASE_URL: url,
      REBOUND_SECRET_KEY: key,
      REBOUND_ALLOW_PRIVATE_UPSTREAMS: 'true',
      REBOUND_PLATFORM_POLL_MS: '10',
      REBOUND_ADMIN_TOKEN: 'sealed-tokens-operator-token-0123',
      REBOUND_DEMO: 'false',
      LOG_LEVEL: 'silent',
    }),
  );
}

const provider = { type: 'remote', base_url: 'http://127.0.0.1:9/billing', api_token: 'billing-two' };

describe.each(backends())('upstream tokens sealed with REBOUND_SECRET_KEY ($name)', (backend) => {
  // The platform the connections sync from: a connection queues a full sync, which must end.
  let fake: FakePlatform;
  let connection: ReturnType<typeof connectBody>;
  beforeAll(async () => {
    fake = await new FakePlatform().start();
    connection = connectBody(fake);
  });
  afterAll(async () => {
    await fake.stop();
    await backend.cleanup();
  });

  it('are not sealed by a process holding another key, whose tokens no server could open', async () => {
    const url = await backend.url();
    const servers = await composeWith(url, SERVERS_KEY);
    const one = await servers.shops.createShop({ handle: 'one', name: 'One' });
    const two = await servers.shops.createShop({ handle: 'two', name: 'Two' });
    await servers.billingProviders.configure(one.shop.id, { ...provider, api_token: 'billing-one' });
    await servers.close();

    // The CLI run with another .env: it must refuse, not seal a token only it can open.
    const cli = await composeWith(url, OTHER_KEY);
    try {
      const refusal =
        /REBOUND_SECRET_KEY is not the key the stored tokens were sealed with \(the billing provider token of shop \d+/;
      await expect(cli.platform.connect(two.shop.id, connection)).rejects.toThrow(refusal);
      await expect(cli.billingProviders.configure(two.shop.id, provider)).rejects.toThrow(refusal);
      await expect(cli.sealedTokens.checkStartup()).rejects.toThrow(
        /^REBOUND_SECRET_KEY does not open the billing provider token of shop [a-z0-9-]+ \(id \d+\)/,
      );
    } finally {
      await cli.close();
    }

    const again = await composeWith(url, SERVERS_KEY);
    try {
      await again.platform.connect(two.shop.id, connection);
      await again.platform.idle();
      await again.sealedTokens.checkStartup();
    } finally {
      await again.close();
    }
  });

  it('stop a start without the key, naming the platform connection too', async () => {
    const url = await backend.url();
    const servers = await composeWith(url, SERVERS_KEY);
    const two = await servers.shops.createShop({ handle: 'two', name: 'Two' });
    await servers.platform.connect(two.shop.id, connection);
    await servers.platform.idle();
    await servers.close();
    const keyless = await compose(
      loadConfig({
        DATABASE_URL: url,
        REBOUND_DEMO: 'false',
        LOG_LEVEL: 'silent',
        REBOUND_ADMIN_TOKEN: 'x'.repeat(32),
      }),
    );
    try {
      await expect(keyless.sealedTokens.checkStartup()).rejects.toThrow(
        `Shop two (id ${two.shop.id}) is connected to its storefront platform, but REBOUND_SECRET_KEY is not set`,
      );
    } finally {
      await keyless.close();
    }
  });
});
