/**
 * A node that could not start, for a reason one of its workers has already reported on the same
 * terminal: the command line tells it in one line, without a stack.
 */
export class StartFailure extends Error {}
