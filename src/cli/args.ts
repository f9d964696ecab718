import { parseArgs } from 'node:util';

/** Parses `rebound <command> [positionals] [--options]`. */
export function parseCommandLine(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      shop: { type: 'string' },
      handle: { type: 'string' },
      name: { type: 'string' },
      timezone: { type: 'string' },
      currency: { type: 'string' },
      scopes: { type: 'string' },
      'public-url': { type: 'string' },
      domain: { type: 'string' },
      token: { type: 'string' },
      'api-version': { type: 'string' },
      'api-url': { type: 'string' },
      'webhook-secret': { type: 'string' },
      reconcile: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  return { command: positionals[0], rest: positionals.slice(1), options: values };
}

export const USAGE = `Usage: rebound <command>

Commands:
  serve                          start the HTTP server (seeds the demo shop into an empty database)
  migrate                        bring the database schema up to date
  backup <file>                  a consistent copy of the database while it runs (SQLite online
                                 backup; PostgreSQL: pg_dump)
  restore <file>                 a backup into an empty database (servers stopped; pg_restore)
  seed-demo                      create or refresh the demo shop (handle "demo")
  import <dir> --shop <handle>   load products.json, collections.json, inventory.json, customers.json,
                                 markets.json, orders.json (JSON arrays, or .ndjson) from a folder into a shop
  shops create --handle <h> --name <n> [--timezone Z] [--currency C] [--scopes a,b] [--public-url U]
                                 create a shop and print its keys
  keys <shop>                    issue new keys for a shop (the replaced ones work for 24 more hours,
                                 older ones end now)
  keys list <shop>               a shop's keys: kind, prefix and state
  keys revoke <shop> <prefix>    end the one live key named by <prefix> (16+ characters, or the whole key) at once
  connect <shop> --domain <d> --token <t> [--api-version V] [--webhook-secret S] [--api-url U]
                                 connect a shop to its storefront platform and pull everything,
                                 with a progress bar; --reconcile reconciles a connected shop

Configuration comes from the environment: see .env.example.`;
