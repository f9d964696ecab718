import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const api = process.env.REBOUND_URL ?? 'http://127.0.0.1:3000';
const outDir = here('../dist/console');

/** Compresses the built files once, next to them; the server sends the .br / .gz a browser accepts. */
function precompress(): Plugin {
  return {
    name: 'rebound-precompress',
    apply: 'build',
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
        );
      for (const file of walk(outDir).filter((f) => /\.(js|css|html|svg)$/.test(f))) {
        const bytes = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

/** The merchant console: built into dist/console and served by the API server at /console/. */
export default defineConfig({
  root: here('.'),
  base: '/console/',
  plugins: [react(), precompress()],
  build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  // `npm run dev:console` proxies the API of a server started with `npm start`.
  server: { proxy: { '/admin': api, '/api': api, '/demo': api } },
});
