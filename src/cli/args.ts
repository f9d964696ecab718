import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';

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
      yes: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  return { command: positionals[0], rest: positionals.slice(1), options: values };
}

type CommandLine = ReturnType<typeof parseCommandLine>;
type OptionName = keyof CommandLine['options'];

/** What each command takes besides its positionals (and `--help`, which every command answers). */
const OPTIONS_OF: Record<string, OptionName[]> = {
  serve: [],
  migrate: [],
  'seed-demo': [],
  backup: [],
  restore: [],
  import: ['shop'],
  shops: ['handle', 'name', 'timezone', 'currency', 'scopes', 'public-url', 'yes'],
  keys: [],
  connect: ['domain', 'token', 'api-version', 'api-url', 'webhook-secret', 'reconcile'],
};

/**
 * Refuses a command line that does not make sense, before the command opens anything: a mistyped
 * command, a missing argument, or one too many (`keys demo list` would otherwise rotate the keys of
 * demo) must not create or change a database first.
 */
export function checkUsage(line: CommandLine): void {
  const { command, options } = line;
  const allowed = OPTIONS_OF[command ?? ''];
  if (!allowed) throw new UsageError(`unknown command "${command}".`);
  const foreign = Object.keys(options).find((name) => name !== 'help' && !allowed.includes(name as OptionName));
  if (foreign) throw new UsageError(`${command} takes no --${foreign}.`);
  const most = checkPositionals(line);
  if (line.rest.length > most)
    throw new UsageError(
      `${command} takes ${most || 'no'} argument${most === 1 ? '' : 's'} here; "${line.rest[most]}" is one too many.`,
    );
}

/** Throws when an argument is missing; returns how many positionals the command's form takes. */
function checkPositionals({ command, rest, options }: CommandLine): number {
  const [first, second, third] = rest;
  switch (command) {
    case 'backup':
    case 'restore':
      if (!first) throw new UsageError(`${command} needs a file.`);
      return 1;
    case 'import':
      if (!first || !options.shop) throw new UsageError('import needs a folder and --shop <handle>.');
      return 1;
    case 'shops':
      return checkShops(first, second, options);
    case 'keys':
      if (first === 'list') {
        if (!second) throw new UsageError('keys list needs a shop handle.');
        return 2;
      }
      if (first === 'revoke') {
        if (!second || !third) throw new UsageError('keys revoke needs a shop handle and a key prefix.');
        return 3;
      }
      if (!first) throw new UsageError('keys needs a shop handle.');
      if (second === 'list' || second === 'revoke')
        throw new UsageError(`the subcommand comes first: keys ${second} ${first}${third ? ` ${third}` : ''}.`);
      return 1;
    case 'connect':
      if (!first || (!options.reconcile && (!options.domain || !options.token)))
        throw new UsageError('connect needs a shop handle, --domain and --token (or --reconcile).');
      return 1;
    default:
      return 0;
  }
}

/** `shops create`, `shops list`, `shops delete <handle> --yes`: each with only its own options. */
function checkShops(sub: string | undefined, handle: string | undefined, options: CommandLine['options']): number {
  const given = Object.keys(options).filter((name) => name !== 'help');
  const only = (allowed: string[]) => {
    const foreign = given.find((name) => !allowed.includes(name));
    if (foreign) throw new UsageError(`shops ${sub} takes no --${foreign}.`);
  };
  switch (sub) {
    case 'create':
      only(['handle', 'name', 'timezone', 'currency', 'scopes', 'public-url']);
      if (!options.handle || !options.name) throw new UsageError('shops create needs --handle and --name.');
      return 1;
    case 'list':
      only([]);
      return 1;
    case 'delete':
      only(['yes']);
      if (!handle) throw new UsageError('shops delete needs a shop handle.');
      if (!options.yes)
        throw new UsageError(`shops delete removes shop ${handle} and everything stored for it: add --yes to do it.`);
      return 2;
    default:
      throw new UsageError('the shops command has three subcommands: create, list and delete.');
  }
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
  shops list                     every shop: handle, id and name
  shops delete <handle> --yes    delete a shop and everything stored for it (its keys end on every node)
  keys <shop>                    issue new keys for a shop (the replaced ones work for 24 more hours,
                                 older ones end now)
  keys list <shop>               a shop's keys: kind, prefix and state
  keys revoke <shop> <prefix>    end the one live key named by <prefix> (16+ characters, or the whole key) at once
  connect <shop> --domain <d> --token <t> [--api-version V] [--webhook-secret S] [--api-url U]
                                 connect a shop to its storefront platform and pull everything,
                                 with a progress bar; --reconcile reconciles a connected shop

Configuration comes from the environment: see .env.example.`;
