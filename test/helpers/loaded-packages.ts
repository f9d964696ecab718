// `node --import tsx test/helpers/loaded-packages.ts <database url>`: composes the server and its HTTP
// app on the database, as `serve` does, and prints the npm packages the process then holds (JSON).
import { createRequire } from 'node:module';
import { compose } from '../../src/compose.js';
import { loadConfig } from '../../src/config/config.js';
import { buildApp } from '../../src/http/app.js';

const config = loadConfig({ DATABASE_URL: process.argv[2], REBOUND_DEMO: 'false', LOG_LEVEL: 'silent' });
const services = await compose(config);
const app = await buildApp(services, config);
await app.ready();
// CommonJS packages, imported or required, land in this cache (the ESM-only ones, e.g. Kysely, do not).
const packages = new Set<string>();
for (const file of Object.keys(createRequire(import.meta.url).cache)) {
  const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
  if (name) packages.add(name);
}
process.stdout.write(`${JSON.stringify([...packages].sort())}\n`);
await app.close();
await services.close();
