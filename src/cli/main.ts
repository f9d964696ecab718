#!/usr/bin/env node
import cluster from 'node:cluster';
import pino from 'pino';
import type { Services } from '../compose.js';
import { ConfigError, loadProcessConfig, redact } from '../config/config.js';
import { AppError, SchemaMismatchError } from '../domain/errors.js';
import { RevokeInput } from '../domain/inputs/shop.js';
import { validateDocument } from '../domain/inputs/validate.js';
import { loggerOptions } from '../http/plugins/logging.js';
import { checkUsage, parseCommandLine, USAGE } from './args.js';
import { CommandError, settingAtFault, UsageError } from './errors.js';
import { applyHeapFlags } from './heap.js';
import { migrationReport } from './migrate-report.js';
import { StartFailure } from '../cluster/start-failure.js';

// Each command imports what it uses when it runs: a node's primary only starts, routes and watches
// its workers, and does so without the server's modules in its memory (docs/scaling.md).
const out = (line: string) => process.stdout.write(`${line}\n`);

async function run(argv: string[]): Promise<number> {
  const line = parseCommandLine(argv);
  const { command, rest, options } = line;
  if (!command || options.help) {
    out(USAGE);
    // Asked for (`--help`), the usage is an answer; with no command at all, a mistake.
    return options.help ? 0 : 1;
  }
  checkUsage(line);
  const config = loadProcessConfig();
  switch (command) {
    case 'serve':
      applyHeapFlags(config.memoryBudgetMb);
      // Several processes on one port: this one only starts and stops them (src/cluster/primary.ts).
      if (config.workers > 1 && cluster.isPrimary) {
        const { servePrimary } = await import('../cluster/primary.js');
        await servePrimary(config, pino(loggerOptions(config.logLevel) as pino.LoggerOptions));
      } else {
        const [{ serve }, { stopWithPrimary, takeConnectionsFromPrimary }] = await Promise.all([
          import('../main.js'),
          import('../cluster/worker.js'),
        ]);
        stopWithPrimary();
        await serve(config, cluster.isWorker && config.keyRouting ? takeConnectionsFromPrimary : undefined);
      }
      return -1; // keeps running
    case 'backup':
    case 'restore': {
      const file = rest[0]!;
      if (command === 'backup') await requireExisting(config.databaseUrl);
      const { backupDatabase, restoreDatabase } = await import('./backup.js');
      await (command === 'backup' ? backupDatabase : restoreDatabase)(config.databaseUrl, file);
      out(
        command === 'backup'
          ? `Backed up to ${file}.`
          : `Restored ${file}; run \`rebound migrate\` if it predates this version.`,
      );
      return 0;
    }
    case 'migrate': {
      // The same lock as a server's start-up: a node starting meanwhile waits, then finds the schema current.
      const [{ withStartupLock }, { openStore }] = await Promise.all([
        import('../store/startup-lock.js'),
        import('../store/open.js'),
      ]);
      let newer: string[] = [];
      let applied: string[] = [];
      await withStartupLock(config.databaseUrl, async () =>
        (
          await openStore(config.databaseUrl, {
            onNewerSchema: (names) => (newer = names),
            onApplied: (names) => (applied = names),
          })
        ).close(),
      );
      out(migrationReport(applied, newer));
      return 0;
    }
  }
  if (ON_EXISTING_DATABASE.has(command)) await requireExisting(config.databaseUrl);
  const { compose } = await import('../compose.js');
  const services = await compose(config);
  try {
    switch (command) {
      case 'seed-demo': {
        const { seedDemo } = await import('../services/demo-start.js');
        const result = await seedDemo(services, config.publicUrl);
        out(`Demo shop ${result.created ? 'created' : 'refreshed'}: ${JSON.stringify(result.counts)}`);
        if (result.keys)
          out(
            `public key: ${result.keys.public}\nprivate key: ${result.keys.private}\n` +
              `storefront widget demo: ${config.publicUrl}/widget-demo?key=${encodeURIComponent(result.keys.public)}`,
          );
        return 0;
      }
      case 'import': {
        const { importFolder } = await import('./import.js');
        await importFolder(services, rest[0]!, options.shop!, out);
        return 0;
      }
      case 'shops': {
        if (rest[0] === 'list') {
          for (const shop of await services.shops.listShops()) out(`${shop.handle}\t${shop.id}\t${shop.name}`);
          return 0;
        }
        if (rest[0] === 'delete') {
          const shop = await services.shops.requireShop(rest[1]!);
          await services.privacy.shopRedact(shop.id);
          out(`Shop ${shop.handle} (id ${shop.id}) deleted, with everything stored for it.`);
          return 0;
        }
        const { shop, keys } = await services.shops.createShop({
          handle: options.handle,
          name: options.name,
          ...(options.timezone ? { timezone: options.timezone } : {}),
          ...(options.currency ? { currency: options.currency } : {}),
          ...(options.scopes
            ? {
                scopes: options.scopes
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean),
              }
            : {}),
          ...(options['public-url'] ? { public_url: options['public-url'] } : {}),
        });
        out(`Shop ${shop.handle} created (id ${shop.id}).\npublic key: ${keys.public}\nprivate key: ${keys.private}`);
        return 0;
      }
      case 'keys':
        await keysCommand(services, rest);
        return 0;
      case 'connect': {
        const { connectCommand } = await import('./connect.js');
        return await connectCommand(
          services,
          rest[0]!,
          options,
          (text) => process.stdout.write(text),
          process.stdout.isTTY === true,
        );
      }
      default:
        throw new UsageError(`unknown command "${command}".`);
    }
  } finally {
    await services.close();
  }
}

/**
 * Commands that work on a database Rebound has set up: pointed at a mistyped DATABASE_URL, they would
 * make a new, empty one (and, for `shops create`, a shop in it nobody serves). `serve`, `migrate`,
 * `seed-demo` and `restore` make one.
 */
const ON_EXISTING_DATABASE = new Set(['import', 'shops', 'keys', 'connect']);

async function requireExisting(databaseUrl: string): Promise<void> {
  const { holdsRebound } = await import('../store/existing.js');
  if (!(await holdsRebound(databaseUrl)))
    throw new CommandError(
      `no Rebound database at ${redact(databaseUrl)} (DATABASE_URL): ` +
        '`rebound migrate` or `rebound serve` creates one.',
    );
}

/** `keys <shop>` rotates; `keys list <shop>` and `keys revoke <shop> <prefix>` (docs/operations.md, "Keys"). */
async function keysCommand(services: Services, rest: string[]): Promise<void> {
  // As many as each form needs: checkUsage has seen to it.
  const [first, shop, prefix] = rest as [string, string, string];
  if (first === 'list') {
    for (const k of await services.shops.listKeys(shop))
      out(`${k.key_prefix.padEnd(16)} ${k.kind.padEnd(8)} ${k.state.padEnd(8)} ${k.expires_at ?? ''}`);
    return;
  }
  if (first === 'revoke') {
    // The HTTP route's check: a short prefix would end whichever live key it happens to start.
    const shortest = RevokeInput.properties.key_prefix.minLength ?? 1;
    if (prefix.length < shortest)
      throw new CommandError(
        `keys revoke needs the whole key or its first ${shortest} characters or more, got "${prefix}".`,
      );
    validateDocument(RevokeInput, { key_prefix: prefix }, 'key');
    const { revoked } = await services.shops.revokeKey(shop, prefix);
    out(`Revoked ${revoked} key${revoked === 1 ? '' : 's'} of ${shop} starting with ${prefix}.`);
    return;
  }
  const { keys, previous_keys_expire_at } = await services.shops.rotateKeys(first);
  out(
    `New keys for ${first} (the replaced ones work until ${previous_keys_expire_at}):\n` +
      `public key: ${keys.public}\nprivate key: ${keys.private}`,
  );
}

run(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    const oneLine = [ConfigError, AppError, CommandError, StartFailure, SchemaMismatchError].some(
      (kind) => error instanceof kind,
    );
    if (oneLine) {
      process.stderr.write(`rebound: ${(error as Error).message}\n`);
    } else if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`rebound: ${(error as Error).message}\n\n${USAGE}\n`);
    } else {
      const line = settingAtFault(error, loadProcessConfig());
      process.stderr.write(`rebound: ${line ?? (error as Error).stack ?? String(error)}\n`);
    }
    process.exit(1);
  },
);
