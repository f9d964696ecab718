import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /(?<!\.d)\.ts$/.test(path) ? [path] : [];
  });
}

/** The packages the compiled module loads: what TypeScript emits, so type-only imports drop out exactly as in dist/. */
function runtimePackages(file: string): string[] {
  const output = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
    fileName: file,
  }).outputText;
  const specifiers = ts.preProcessFile(output, true, true).importedFiles.map((f) => f.fileName);
  return specifiers
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
}

describe('the production install', () => {
  // `npm ci --omit=dev` plus dist/ must start: nothing the server or the demo seed loads may be a devDependency.
  it('loads only production dependencies from src/ and demo/', () => {
    const sources = [...files(join(ROOT, 'src')), ...files(join(ROOT, 'demo'))];
    const used = sources.flatMap((file) => runtimePackages(file).map((name) => ({ name, file: relative(ROOT, file) })));
    // The scan must see the server's imports, or this check would pass by seeing nothing.
    expect(used.map((u) => u.name)).toEqual(expect.arrayContaining(['fastify', 'kysely', 'better-sqlite3']));
    const missing = used.filter((u) => !(u.name in manifest.dependencies)).map((u) => `${u.file}: ${u.name}`);
    expect(missing).toEqual([]);
  });
});
