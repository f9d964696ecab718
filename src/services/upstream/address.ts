import { BlockList, isIP } from 'node:net';
import { InvalidDocumentError } from '../../domain/errors.js';

/**
 * The address rules of every upstream call (docs/operations.md, "Security model"): an upstream is
 * reached over https, named without credentials or query, on a public address. Loopback, private,
 * shared, link-local, unspecified, multicast and reserved ranges are refused, however the address
 * is spelled (the WHATWG URL parser already turns `127.1` and `0x7f000001` into `127.0.0.1`;
 * IPv6 forms that embed an IPv4 address are checked as that address).
 */
const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const)
  refused.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['64:ff9b:1::', 48], // NAT64 for local use: the network's own translator, its addresses anywhere in the prefix
  ['100::', 64], // discard-only
] as const)
  refused.addSubnet(network, prefix, 'ipv6');

/**
 * IPv6 prefixes whose last 32 bits are an IPv4 address: mapped, compatible, translated (`::ffff:0:0/96`),
 * NAT64, and 6to4 (bits 16–47).
 */
function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address);
  if (!groups) return null;
  const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0)) return quad(groups[6]!, groups[7]!);
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return quad(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return quad(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return quad(groups[1]!, groups[2]!);
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad allowed), or null. */
function expandIpv6(address: string): number[] | null {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1]!.split('.').map(Number);
    const [high, low] = [(parts[0]! << 8) | parts[1]!, (parts[2]! << 8) | parts[3]!];
    text = `${text.slice(0, dotted.index)}${high.toString(16)}:${low.toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((g) =>
    Number.parseInt(g, 16),
  );
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** Whether an IP address (v4 or v6, without brackets) may be called: false for every refused range. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !refused.check(address, 'ipv4');
  if (family !== 6) return false;
  const inner = embeddedIpv4(address);
  if (inner !== null) return isPublicAddress(inner);
  return !refused.check(address.replace(/%.*$/, ''), 'ipv6');
}

/** Host names that always mean this machine or the local network, whatever a resolver says. */
const LOCAL_NAME = /(^|\.)(localhost|local|localdomain|internal|home\.arpa)\.?$/i;

/**
 * Why `value` cannot be an upstream URL, or null when it can. Pure: a host name is not resolved
 * here (the client checks every resolved address when it connects). With `allowPrivate`
 * (REBOUND_ALLOW_PRIVATE_UPSTREAMS, development and tests) plain http and private addresses pass.
 */
export function upstreamUrlProblem(value: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'must be an https URL';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.search || url.hash) return 'must not carry a query or fragment';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return isPublicAddress(host) ? null : 'must be a public address';
  if (LOCAL_NAME.test(host) || !host.includes('.')) return 'must be a public host name';
  return null;
}

/** The URL, normalized without a trailing slash; a 422 naming `field` when the rules refuse it. */
export function checkUpstreamUrl(value: string | undefined, field: string, allowPrivate: boolean): string {
  const problem = value === undefined ? 'required' : upstreamUrlProblem(value, allowPrivate);
  if (problem !== null)
    throw new InvalidDocumentError(`Invalid ${field}: ${problem}.`, [{ path: field, message: problem }]);
  return new URL(value!).toString().replace(/\/+$/, '');
}
