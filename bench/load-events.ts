/**
 * `npm run load:events`: sustained event intake with many concurrent clients on SQLite and on
 * PostgreSQL, then the same with the server killed (SIGKILL) half-way and restarted. Each run
 * counts stored events against acknowledged ones; an acknowledged event that is not stored fails it.
 * Settings: LOAD_SECONDS, LOAD_CLIENTS, LOAD_DATABASES, LOAD_WORKERS (e.g. `1,2`: one run per count),
 * LOAD_BATCH (events per request, e.g. `1,10`: one run per size; more than 1 uses the bulk endpoint).
 */
import { runEventLoad } from './lib/event-load.js';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 20);
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 50);
const databases = (process.env.LOAD_DATABASES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
/** Processes of the server, one run each (REBOUND_WORKERS): e.g. `1,2`. */
const WORKERS = (process.env.LOAD_WORKERS ?? '1').split(',').map(Number);
/** Events per request, one run each: 1 is `POST /api/v1/analytics/event`, more the bulk endpoint. */
const BATCHES = (process.env.LOAD_BATCH ?? '1').split(',').map(Number);

async function main() {
  const summary: Record<string, unknown> = {};
  let failed = false;
  const runs = WORKERS.flatMap((w) => BATCHES.flatMap((b) => [false, true].map((c) => [w, b, c] as const)));
  for (const database of databases) {
    for (const [workers, batch, crash] of runs) {
      const shape = `${workers > 1 ? `_${workers}workers` : ''}${batch > 1 ? `_bulk${batch}` : ''}`;
      const name = `${database}${shape}${crash ? '_kill9' : ''}`;
      const result = await runEventLoad({
        database,
        clients: CLIENTS,
        seconds: SECONDS,
        serverArgs: ['dist/src/cli/main.js', 'serve'],
        workers,
        batch,
        ...(crash ? { crashAfterMs: (SECONDS * 1000) / 2 } : {}),
      });
      summary[name] = result;
      failed ||= result.lost > 0;
      console.log(
        `${name.padEnd(24)} ${CLIENTS} clients, ${crash ? `killed after ${SECONDS / 2} s` : `${SECONDS} s`}: ` +
          `${result.eventsPerSecond} events/s acknowledged; sent ${result.sent}, acknowledged ` +
          `${result.acknowledged}, stored ${result.stored}, lost ${result.lost}`,
      );
    }
  }
  console.log(JSON.stringify(summary));
  if (failed) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
