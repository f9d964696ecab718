import { describe, expect, it } from 'vitest';
import { outageLog } from '../../src/cache/outage-log.js';

describe('the shared cache outage log', () => {
  it('logs the first failure, then one a minute with how many the minute held', () => {
    let clock = 1_000;
    const lines: [unknown, number][] = [];
    const log = outageLog(
      (error, held) => lines.push([error, held]),
      () => clock,
    );
    log('down');
    for (let i = 0; i < 30; i++) {
      clock += 1_000;
      log(`again ${i}`);
    }
    expect(lines).toEqual([['down', 0]]);
    clock += 30_000; // a minute after the first line
    log('still down');
    expect(lines).toEqual([
      ['down', 0],
      ['still down', 30],
    ]);
  });
});
