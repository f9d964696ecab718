/**
 * A database another version of Rebound migrated in a way this one cannot run on. Its own module, of
 * no imports, so the CLI can tell it without loading the store.
 */
export class SchemaMismatchError extends Error {}
