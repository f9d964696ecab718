import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root: the nearest folder above this module with
 * a package.json (src/ under tests, dist/src/ in production).
 */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the server code');
    dir = parent;
  }
  return dir;
}

/** Where `npm run build:web` writes a browser bundle (`console`, `widget`). */
export function webBuildDir(name: 'console' | 'widget'): string {
  return join(projectRoot(), 'dist', name);
}
