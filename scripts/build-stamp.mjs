#!/usr/bin/env node
// The build stamp says which sources dist/ was built from, so `npm start` can refuse a missing or
// stale build in milliseconds instead of rebuilding on every start.
//   write    after `npm run build`: records the newest source modification time
//   check    before `npm start`: one line and exit 1 when dist/ is missing or older than a source
//   prepare  `npm ci`'s prepare step: builds when the build tools are installed, skips otherwise
//            (`npm ci --omit=dev` installs production dependencies only and must not fail)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampFile = join(root, 'dist', 'build-stamp.json');
// Everything `npm run build` compiles or bundles.
const sourceFolders = ['src', 'demo', 'console', 'widget'];
// Documentation (README.md files beside the code) is not built: editing it leaves the build current.
const sourceFiles = ['package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

/** The most recently modified source file; folders that are absent (a production copy) count as nothing. */
function newestSource() {
  let newest = { path: '', mtimeMs: 0 };
  const visit = (path) => {
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) return;
    if (info.isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules') visit(join(path, name));
    } else if (!path.endsWith('.md') && info.mtimeMs > newest.mtimeMs) newest = { path, mtimeMs: info.mtimeMs };
  };
  for (const name of [...sourceFolders, ...sourceFiles]) visit(join(root, name));
  return newest;
}

function fail(line) {
  process.stderr.write(`rebound: ${line}\n`);
  process.exit(1);
}

function check() {
  if (!existsSync(stampFile) || !existsSync(join(root, 'dist', 'src', 'cli', 'main.js')))
    fail('no build in dist/: run `npm run build` first (npm start does not build).');
  const { sourcesModifiedAt } = JSON.parse(readFileSync(stampFile, 'utf8'));
  const newest = newestSource();
  if (newest.mtimeMs > sourcesModifiedAt)
    fail(`the build in dist/ is older than ${relative(root, newest.path)}: run \`npm run build\` first.`);
}

function write() {
  const stamp = { sourcesModifiedAt: newestSource().mtimeMs, builtAt: new Date().toISOString() };
  writeFileSync(stampFile, `${JSON.stringify(stamp)}\n`);
}

function prepare() {
  try {
    createRequire(join(root, 'package.json')).resolve('typescript');
  } catch {
    process.stdout.write('rebound: build tools not installed (production install); skipping the build.\n');
    return;
  }
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

const commands = { check, write, prepare };
const command = commands[process.argv[2]];
if (!command) fail(`usage: build-stamp.mjs ${Object.keys(commands).join('|')}`);
command();
