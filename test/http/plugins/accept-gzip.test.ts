import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, rawAcceptEncoding } from '../../../src/http/plugins/accept-gzip.js';

describe('acceptsGzip', () => {
  it('takes gzip in any case, as browsers and HTTP clients send it', () => {
    for (const header of ['gzip', 'gzip, deflate, br', 'GZIP', 'deflate, Gzip;q=0.5', 'br;q=1, gzip;q=0.8'])
      expect(acceptsGzip(header), header).toBe(true);
  });

  it('refuses q=0, another coding, or no header', () => {
    for (const header of ['gzip;q=0', 'GZIP; q=0.0', 'gzip;q=0, br', 'deflate, br', 'identity', ''])
      expect(acceptsGzip(header), header).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip(['gzip', 'br'])).toBe(false);
  });
});

/** Sends each raw request on its own connection to a node:http server; gives what the server saw of each. */
async function seen(requests: string[]): Promise<IncomingMessage[]> {
  const received: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    received.push(req);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  for (const raw of requests) {
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(raw));
      socket
        .on('data', () => socket.destroy())
        .on('close', () => resolve())
        .on('error', reject);
    });
  }
  await new Promise((resolve) => server.close(resolve));
  return received;
}

describe('rawAcceptEncoding', () => {
  it("reads what Node's parsed headers hold: any case, several lines joined, or none", async () => {
    const request = (...lines: string[]) => `GET / HTTP/1.1\r\nHost: x\r\n${lines.map((l) => `${l}\r\n`).join('')}\r\n`;
    const requests = [
      request('Accept-Encoding: gzip, deflate, br, zstd', 'Accept: */*', 'User-Agent: a'),
      request('accept-encoding: br'),
      request('ACCEPT-ENCODING: gzip;q=0', 'X-Accept-Encodings: gzip'),
      request('Accept-Encoding: br', 'Accept: */*', 'Accept-Encoding: gzip'),
      request('Accept-Encoding:', 'Accept-Language: en'),
      request('Accept-Language: en', 'Accept-Encodinx: gzip'),
    ];
    const received = await seen(requests);
    expect(received).toHaveLength(requests.length);
    const read = received.map((req) => [rawAcceptEncoding(req.rawHeaders), req.headers['accept-encoding']]);
    for (const [raw, parsed] of read) expect(raw).toBe(parsed);
    expect(read.map(([raw]) => raw)).toEqual(['gzip, deflate, br, zstd', 'br', 'gzip;q=0', 'br, gzip', '', undefined]);
  });
});
