import { describe, expect, it } from 'vitest';
import { runEventLoad } from '../../bench/lib/event-load.js';
import { backends } from '../helpers/backends.js';

const serverArgs = ['--import', 'tsx', 'src/cli/main.ts', 'serve'];
// Each run starts server processes that compile the sources on start; on two busy cores (the browser
// suites run alongside) that alone can take tens of seconds, so these get more time than a unit test.
const PROCESS_TIMEOUT_MS = 120_000;

/** Real server processes under concurrent load; the SIGKILL run is the crash test of docs/api.md, "Events". */
describe.each(backends().map((b) => b.name))('event intake durability on %s', (database) => {
  it(
    'stores exactly what it acknowledged under concurrent load',
    async () => {
      const result = await runEventLoad({ database, clients: 10, seconds: 1.5, minAcknowledged: 60, serverArgs });
      expect(result.acknowledged).toBeGreaterThan(50);
      expect(result.failed).toBe(0);
      expect(result.stored).toBe(result.acknowledged);
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'loses no acknowledged event when the server is killed with SIGKILL mid-load',
    async () => {
      const result = await runEventLoad({
        database,
        clients: 10,
        seconds: 4,
        crashAfterMs: 1500,
        minAcknowledged: 60,
        serverArgs,
      });
      expect(result.crashed).toBe(true);
      expect(result.acknowledged).toBeGreaterThan(50);
      expect(result.lost).toBe(0);
      expect(result.stored).toBeGreaterThanOrEqual(result.acknowledged);
      expect(result.stored).toBeLessThanOrEqual(result.sent);
    },
    PROCESS_TIMEOUT_MS,
  );

  it(
    'loses no acknowledged event of a bulk request when the server is killed with SIGKILL mid-load',
    async () => {
      // Ten views a request: an acknowledged request is ten events that must all be stored.
      const result = await runEventLoad({
        database,
        clients: 10,
        batch: 10,
        seconds: 4,
        crashAfterMs: 1500,
        minAcknowledged: 600,
        serverArgs,
      });
      expect(result.crashed).toBe(true);
      expect(result.acknowledged).toBeGreaterThanOrEqual(600);
      expect(result.lost).toBe(0);
      expect(result.stored).toBeGreaterThanOrEqual(result.acknowledged);
      expect(result.stored).toBeLessThanOrEqual(result.sent);
    },
    PROCESS_TIMEOUT_MS,
  );
});
