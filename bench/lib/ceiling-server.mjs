// The machine's ceiling: a bare node:http server sending the same bytes from one Buffer.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.argv[2]);
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length };
createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1', function announce() {
  // PORT=0: whoever started us learns the port the system chose, as from the server.
  if (process.env.PORT === '0') console.log(`Listening on http://127.0.0.1:${this.address().port}`);
});
