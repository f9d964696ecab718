import { setFlagsFromString } from 'node:v8';
import { operatorFlags, runtimeHeapFlags } from '../config/memory.js';

/**
 * Sets the V8 flags a server's budget calls for that V8 reads as it runs (src/config/memory.ts).
 * A worker thread's start puts V8's flags back to the command line's, so they are set again each
 * time one is running; returns the flags set.
 */
export function applyHeapFlags(budgetMb: number): string[] {
  const flags = runtimeHeapFlags(budgetMb, operatorFlags(process.execArgv));
  if (flags.length === 0) return flags;
  const apply = () => {
    for (const flag of flags) setFlagsFromString(flag);
  };
  apply();
  process.on('worker', (worker) => worker.once('online', apply));
  return flags;
}
