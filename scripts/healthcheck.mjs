#!/usr/bin/env node
// The container's HEALTHCHECK (the slim image has no curl): healthy while /readyz answers 200.
// A server on every interface (HOST 0.0.0.0 or ::) is asked on loopback; one on a single address
// only answers there.
const port = process.env.PORT || '3000';
const host = process.env.HOST?.trim() || '0.0.0.0';
const everywhere = ['0.0.0.0', '::', '[::]'].includes(host);
const address = everywhere ? '127.0.0.1' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
try {
  const response = await fetch(`http://${address}:${port}/readyz`, { signal: AbortSignal.timeout(3000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
