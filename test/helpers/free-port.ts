import { createServer } from 'node:net';

/**
 * A port the OS assigns, for a child process that must know its own address before it starts (its
 * printed links name it): bind port 0, read the port, release it. Never a fixed or random number.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
