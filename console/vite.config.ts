import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const api = process.env.REBOUND_URL ?? 'http://127.0.0.1:3000';

/** The merchant console: built into dist/console and served by the API server at /console/. */
export default defineConfig({
  root: here('.'),
  base: '/console/',
  plugins: [react()],
  build: { outDir: here('../dist/console'), emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  // `npm run dev:console` proxies the API of a server started with `npm start`.
  server: { proxy: { '/admin': api, '/api': api, '/demo': api } },
});
