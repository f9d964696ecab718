/** Content codings are case-insensitive (RFC 9110): `GZIP` and `gzip` are one coding. */
const GZIP = /gzip/i;
const REFUSED = /gzip;\s*q=0(\.0*)?(,|$)/i;

/** Whether a client takes gzip (a plain substring test is what every server does; q=0 is honoured). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  return typeof header === 'string' && GZIP.test(header) && !REFUSED.test(header);
}
