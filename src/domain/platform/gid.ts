/** Global ids of the platform's GraphQL API: `gid://shopify/Product/123` (docs/api.md, "Connecting the platform"). */

const GID = /^gid:\/\/[A-Za-z]+\/([A-Za-z]+)\/(\d{1,16})(?:\?.*)?$/;

/** The numeric id at the end of a GID; null when it is not one. */
export function gidNumber(gid: unknown): number | null {
  if (typeof gid !== 'string') return null;
  const match = GID.exec(gid);
  const id = match ? Number(match[2]) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The resource type named by a GID (`Product`, `ProductVariant`, …); null when it is not one. */
export function gidType(gid: unknown): string | null {
  return typeof gid === 'string' ? (GID.exec(gid)?.[1] ?? null) : null;
}

export const toGid = (type: string, id: number): string => `gid://shopify/${type}/${id}`;
