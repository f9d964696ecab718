import type { IncomingHttpHeaders } from 'node:http';
import { Agent } from 'undici';

/**
 * The part of the upstream HTTP client the platform connection uses: one bounded call, or one
 * answer opened as a stream of lines. The address rules, deadline and caps live in that client.
 */
export interface UpstreamPort {
  call(request: PortRequest): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>;
  open(request: PortRequest): Promise<{ status: number; headers: IncomingHttpHeaders; lines(maxLineBytes: number): AsyncGenerator<string>; cancel(): void }>;
}

export interface PortRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  deadlineMs: number;
  maxBytes?: number;
}

/** A plain undici implementation of the port, for callers that have no shared upstream client. */
export function undiciPort(): UpstreamPort & { close(): Promise<void> } {
  const agent = new Agent({ connections: 8, headersTimeout: 0, bodyTimeout: 0 });
  const start = async (request: PortRequest) => {
    const url = new URL(request.url);
    return agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: request.method ?? 'GET',
      headers: request.headers ?? {},
      signal: AbortSignal.timeout(request.deadlineMs),
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
  };
  return {
    async call(request) {
      const response = await start(request);
      const body = Buffer.from(await response.body.arrayBuffer());
      return { status: response.statusCode, headers: response.headers, body };
    },
    async open(request) {
      const response = await start(request);
      async function* lines(maxLineBytes: number): AsyncGenerator<string> {
        let pending = '';
        for await (const chunk of response.body) {
          pending += (chunk as Buffer).toString('utf8');
          let at = pending.indexOf('\n');
          while (at !== -1) {
            const line = pending.slice(0, at).trim();
            pending = pending.slice(at + 1);
            if (line !== '') yield line;
            at = pending.indexOf('\n');
          }
          if (pending.length > maxLineBytes) throw new Error('a line of the answer is too long');
        }
        if (pending.trim() !== '') yield pending.trim();
      }
      return { status: response.statusCode, headers: response.headers, lines, cancel: () => response.body.destroy() };
    },
    close: () => agent.close(),
  };
}
