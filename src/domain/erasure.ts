/**
 * Whether a record of a customer the shop has erased predates the erasure, and so stays forgotten: a
 * change the platform made before it, delivered again after it (a webhook's retry, one queued
 * behind it) or read again (a reconciliation of a customer the platform still holds). A change made
 * after the erasure is new data. `changedAt` null: the record says nothing of when it changed, so
 * it cannot be told from an old one (docs/operations.md, "Privacy").
 */
export function predatesErasure(erasedAt: number | undefined, changedAt: number | null): boolean {
  return erasedAt !== undefined && (changedAt === null || changedAt <= erasedAt);
}
