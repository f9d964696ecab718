// The machine's ceiling: a bare node:http server sending the same bytes from one Buffer, under the
// same header lines as the measured answer (a JSON file of [name, value] pairs in the order they came).
//
//   node ceiling-server.mjs <body> [<headers>] [--route <path prefix> <body> <headers>]...
//
// A request whose path starts with a route's prefix gets that route's answer (the first that
// matches), any other the first answer. CEILING_WORKERS=N (default 1) serves from N processes
// behind the one port (node:cluster), as a server of N workers does.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

// Node writes Date, Connection and Keep-Alive itself, as it does for the measured server.
const own = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

function answer(bodyFile, headersFile) {
  const body = readFileSync(bodyFile);
  const captured = headersFile ? JSON.parse(readFileSync(headersFile, 'utf8')) : null;
  const headers = captured
    ? captured.filter(([name]) => !own.has(name.toLowerCase())).flat()
    : ['content-type', 'application/json; charset=utf-8', 'content-length', String(body.length)];
  const keepAlive = captured?.find(([name]) => name.toLowerCase() === 'keep-alive')?.[1];
  return { body, headers, keepAlive };
}

function parseArgs(args) {
  const [bodyFile, maybeHeaders, ...rest] = args;
  const headersFile = maybeHeaders === '--route' ? undefined : maybeHeaders;
  if (maybeHeaders === '--route') rest.unshift('--route');
  const routes = [];
  for (let i = 0; i < rest.length; i += 4) {
    if (rest[i] !== '--route' || rest[i + 3] === undefined) throw new Error(`bad arguments: ${rest.join(' ')}`);
    routes.push({ prefix: rest[i + 1], ...answer(rest[i + 2], rest[i + 3]) });
  }
  return { fallback: answer(bodyFile, headersFile), routes };
}

const workers = Number(process.env.CEILING_WORKERS ?? 1);
if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
  // The workers announce the port; the primary only keeps them.
} else {
  const { fallback, routes } = parseArgs(process.argv.slice(2));
  const server = createServer((req, res) => {
    const chosen = routes.find((r) => req.url.startsWith(r.prefix)) ?? fallback;
    res.writeHead(200, chosen.headers);
    res.end(chosen.body);
  });
  // The same keep-alive timeout, so even the `Keep-Alive: timeout=N` line is the server's.
  const timeout = Number(/timeout=(\d+)/.exec(fallback.keepAlive ?? '')?.[1]);
  if (timeout) server.keepAliveTimeout = timeout * 1000;
  server.listen(Number(process.env.PORT), '127.0.0.1', function announce() {
    // PORT=0: whoever started us learns the port the system chose, as from the server (with several
    // workers node:cluster gives them all one port, so each announces the same).
    if (process.env.PORT === '0') console.log(`Listening on http://127.0.0.1:${this.address().port}`);
  });
}
