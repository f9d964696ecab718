import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(path) ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map(
    (m) => m[1]!,
  );
}

/** The layering of STYLE.md, checked on every test run. */
const RULES: { layer: string; forbidden: RegExp; why: string }[] = [
  {
    layer: 'domain',
    forbidden: new RegExp(
      [
        '/(http|store|cache|services|indexes|jobs|cli)/',
        '^(fastify|kysely|pg|better-sqlite3|ioredis|pino)$',
        '^node:(fs|http|net)',
      ].join('|'),
    ),
    why: 'domain is pure',
  },
  { layer: 'http', forbidden: /\/store\//, why: 'http talks to services, never to the store' },
  { layer: 'indexes', forbidden: /\/(http|services)\//, why: 'indexes are read models below the services' },
  { layer: 'services', forbidden: /\/http\//, why: 'services are shared by HTTP and the CLI' },
];

const ROOT = join(import.meta.dirname, '..');

describe('architecture', () => {
  // The browser bundles may share the server's pure domain code and types, nothing that needs Node or a database.
  for (const bundle of ['console/src', 'widget/src']) {
    it(`${bundle} reaches into the server only for src/domain`, () => {
      const sources = files(join(ROOT, bundle));
      // The scan must see the bundle's files and their imports, or this check would pass by seeing nothing.
      expect(sources.length).toBeGreaterThan(3);
      expect(sources.flatMap(importsOf).length).toBeGreaterThan(sources.length);
      const offenders = sources.flatMap((file) =>
        importsOf(file)
          // The console's widget preview renders with the storefront widget's own code, so the two show the same cards.
          .filter(
            (spec) =>
              spec.includes('/src/') &&
              !/\/src\/domain\//.test(spec) &&
              !(bundle === 'console/src' && /\/widget\/src\//.test(spec)),
          )
          .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
      );
      expect(offenders).toEqual([]);
    });
  }

  it("the console's wire types come from the server's domain, so they cannot drift", () => {
    const usesDomain = files(join(ROOT, 'console/src')).some((file) =>
      importsOf(file).some((spec) => spec.includes('/src/domain/')),
    );
    expect(usesDomain).toBe(true);
  });

  for (const rule of RULES) {
    it(`${rule.layer}/ respects its boundary (${rule.why})`, () => {
      const offenders = files(join(SRC, rule.layer)).flatMap((file) =>
        importsOf(file)
          .filter((spec) => rule.forbidden.test(spec))
          .map((spec) => `${relative(SRC, file)} imports ${spec}`),
      );
      expect(offenders).toEqual([]);
    });
  }
});
