/** A failure the CLI reports in one line, without a stack (apart from src/cli/backup.ts, which raises it). */
export class CommandError extends Error {}

/** A command line that does not make sense: reported with the usage text. */
export class UsageError extends Error {}
