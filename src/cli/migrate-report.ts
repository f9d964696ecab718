/** What `rebound migrate` says it did: an operator upgrading needs to see whether anything changed. */
export function migrationReport(applied: readonly string[], newer: readonly string[]): string {
  if (newer.length > 0) return `Database schema is newer than this version (${newer.join(', ')}); nothing to do.`;
  if (applied.length === 0) return 'Database schema is up to date; no migration to apply.';
  const which = applied.length === 1 ? applied[0] : `${applied[0]} to ${applied.at(-1)}`;
  return `Applied ${applied.length} migration${applied.length === 1 ? '' : 's'} (${which}); the schema is up to date.`;
}
