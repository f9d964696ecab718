import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The storefront widget: one self-contained script, served by the API server at /widget.js. */
export default defineConfig({
  build: {
    outDir: here('../dist/widget'),
    emptyOutDir: true,
    target: 'es2019',
    lib: { entry: here('src/widget.ts'), name: 'ReboundWidget', formats: ['iife'], fileName: () => 'widget.js' },
  },
});
