/**
 * V8 settings that keep a serving process's heap in proportion to its memory budget
 * (docs/scaling.md, "What a fresh process is made of"). Node's defaults suit a process that owns
 * the machine: a young generation of two 16 MB semi-spaces, and an old generation allowed to grow
 * to up to four times what was alive after its last full collection. Under a small budget that
 * garbage, not the shops, is most of the resident memory.
 */

type Env = Record<string, string | undefined>;

/** Budgets from this size on keep V8's defaults: the garbage they allow is a small part of them. */
const LARGE_BUDGET_MB = 2048;

/** How far the old generation may grow past its live bytes before the next full collection, in percent. */
export const HEAP_GROWING_PERCENT = 50;

/**
 * One semi-space of the young generation, in MB, under a budget below LARGE_BUDGET_MB: what
 * `npm start`, the container image and the cluster's workers give a server. V8's default is 16,
 * two of them committed as soon as the process has allocated a few MB: 24 MB more in a fresh
 * server, for no gain on the cached path (docs/benchmarks.md). It was 2: where shops are loaded and
 * evicted all the time (a small budget), a shop that lives a few milliseconds then died in the
 * young generation less often, was promoted and collected by a full collection; 4 served 20-30%
 * more requests at 160 MB for 4 MB more (8: as many, past 1.25 times the budget).
 */
export const SEMI_SPACE_MB = 4;

const given = (flags: readonly string[], name: string) =>
  flags.some((f) => f.replaceAll('_', '-').startsWith(`--${name}`));

/**
 * The young generation's size is fixed when the process starts: a command-line flag, which the
 * cluster's workers get from here (their primary's own flags are kept and win).
 */
export function workerExecArgv(
  budgetMb: number,
  execArgv: readonly string[],
  flags: readonly string[] = operatorFlags(execArgv),
): string[] {
  if (budgetMb >= LARGE_BUDGET_MB || given(flags, 'max-semi-space-size') || given(flags, 'max-heap-size'))
    return [...execArgv];
  return [...execArgv, `--max-semi-space-size=${SEMI_SPACE_MB}`];
}

/**
 * glibc's malloc maps allocations from this size on and gives them back when freed, instead of
 * raising the bound to the largest chunk freed so far and keeping such chunks in its heap. Every
 * load reads its shop's snapshot into a buffer of about 165 KB and copies out what it keeps; with
 * glibc's sliding bound that churn stayed in the heap, fragmented: 6-10 MB of RSS at a 160 MB
 * budget (docs/benchmarks.md).
 */
export const MMAP_THRESHOLD_BYTES = 128 * 1024;

/**
 * What the cluster's workers get in their environment: glibc reads the setting when a process
 * starts, so only a process that starts another can give it (the container image sets it for
 * itself). None when the operator set it, or the budget is large.
 */
export function workerEnv(budgetMb: number, env: Env = process.env): Env {
  if (budgetMb >= LARGE_BUDGET_MB || env.MALLOC_MMAP_THRESHOLD_ !== undefined) return {};
  return { MALLOC_MMAP_THRESHOLD_: String(MMAP_THRESHOLD_BYTES) };
}

/**
 * Flags V8 reads as it runs, set once the process has started: `--heap-growing-percent` collects
 * the old generation once it has grown by half past what was alive, instead of V8's factor of up
 * to 4 on a machine with gigabytes of memory. None when the operator set it (command line or
 * NODE_OPTIONS) or the budget is large.
 */
export function runtimeHeapFlags(budgetMb: number, operatorFlags: readonly string[] = []): string[] {
  if (budgetMb >= LARGE_BUDGET_MB || given(operatorFlags, 'heap-growing-percent')) return [];
  return [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`];
}

/** The operator's own V8 and Node flags: this process's command line and NODE_OPTIONS. */
export function operatorFlags(execArgv: readonly string[], env: Env = process.env): string[] {
  return [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean)];
}
