/** Whether a client takes gzip (a plain substring test is what every server does; q=0 is honoured). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  return typeof header === 'string' && header.includes('gzip') && !/gzip;\s*q=0(\.0*)?(,|$)/.test(header);
}
