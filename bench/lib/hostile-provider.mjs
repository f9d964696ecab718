// A hostile billing provider for bench/hostile-upstream.ts, in a process of its own so its work does
// not slow the benchmark's client: HOSTILE_MODE=flood answers 60 MB as fast as the socket takes it,
// stall sends the first bytes of an answer and never finishes, polite answers a small 404 at once
// (the same traffic from a well-behaved provider). GET /ready answers 200.
import { createServer } from 'node:http';

const mode = process.env.HOSTILE_MODE ?? 'flood';
const chunk = Buffer.alloc(1024 * 1024, 0x20);
const server = createServer((req, res) => {
  res.on('error', () => undefined);
  if (req.url === '/ready') return void res.end('ok');
  if (mode === 'polite')
    return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors": "Not Found"}');
  res.writeHead(200, { 'content-type': 'application/json' });
  if (mode === 'stall') return void res.write('{"customer": {"id": 100,');
  let left = 60;
  const pump = () => {
    while (left-- > 0) if (!res.write(chunk)) return void res.once('drain', pump);
    res.end();
  };
  pump();
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () =>
  console.log(`Listening on http://127.0.0.1:${server.address().port}`),
);
