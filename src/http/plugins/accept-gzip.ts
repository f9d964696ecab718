/** Content codings are case-insensitive (RFC 9110): `GZIP` and `gzip` are one coding. */
const GZIP = /gzip/i;
const REFUSED = /gzip;\s*q=0(\.0*)?(,|$)/i;

/** Whether a client takes gzip (a plain substring test is what every server does; q=0 is honoured). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  return typeof header === 'string' && GZIP.test(header) && !REFUSED.test(header);
}

const NAME = 'accept-encoding';

/**
 * A request's Accept-Encoding read from its header lines as received (`req.rawHeaders`), several
 * lines joined as Node joins them. Reading `req.headers` instead makes Node build an object of every
 * header line a browser sent (ten to twenty), which a repeat of a cached answer has no other use for.
 */
export function rawAcceptEncoding(raw: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== NAME.length || name.toLowerCase() !== NAME) continue;
    found = found === undefined ? raw[i + 1] : `${found}, ${raw[i + 1]}`;
  }
  return found;
}
