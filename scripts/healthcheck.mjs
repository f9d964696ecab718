#!/usr/bin/env node
// The container's HEALTHCHECK (the slim image has no curl): healthy while /readyz answers 200.
const port = process.env.PORT || '3000';
const url = `http://127.0.0.1:${port}/readyz`;
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
