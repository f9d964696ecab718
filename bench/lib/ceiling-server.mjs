// The machine's ceiling: a bare node:http server sending the same bytes from one Buffer, under the
// same header lines as the measured answer (a JSON file of [name, value] pairs in the order they came).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.argv[2]);
const captured = process.argv[3] ? JSON.parse(readFileSync(process.argv[3], 'utf8')) : null;
// Node writes Date, Connection and Keep-Alive itself, as it does for the measured server.
const own = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const headers = captured
  ? captured.filter(([name]) => !own.has(name.toLowerCase())).flat()
  : ['content-type', 'application/json; charset=utf-8', 'content-length', String(body.length)];
const keepAlive = captured?.find(([name]) => name.toLowerCase() === 'keep-alive')?.[1];
const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
// The same keep-alive timeout, so even the `Keep-Alive: timeout=N` line is the server's.
const timeout = Number(/timeout=(\d+)/.exec(keepAlive ?? '')?.[1]);
if (timeout) server.keepAliveTimeout = timeout * 1000;
server.listen(Number(process.env.PORT), '127.0.0.1', function announce() {
  // PORT=0: whoever started us learns the port the system chose, as from the server.
  if (process.env.PORT === '0') console.log(`Listening on http://127.0.0.1:${this.address().port}`);
});
