/**
 * The alternating phase of `npm run bench:tenants` (TENANTS_ROUNDS > 1): the server under test,
 * an earlier build (TENANTS_BASE, warmed with as much traffic first) and the bare server sending
 * the same answers' bytes, round after round (`tenant-rounds.ts`); printed as a table, one row a
 * round, then the medians.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCeiling, type CeilingRoute } from './ceiling.js';
import { databaseFor } from './earlier-schema.js';
import { startFlags, startProcess, type Running } from './processes.js';
import { NodeRss } from './tenant-node.js';
import { runTenantLoad } from './tenant-load.js';
import {
  alternate,
  summarize,
  type RoundFigure,
  type RoundSummary,
  type RoundTarget,
  type RoundTraffic,
} from './tenant-rounds.js';
import type { TenantShop } from './tenants-data.js';

export interface RoundPhase {
  rounds: number;
  seconds: number;
  base?: string;
  targets: Record<string, RoundSummary & { peakRssMb?: number }>;
}

export interface RoundSetup {
  server: Running;
  rounds: number;
  seconds: number;
  /** Seconds of traffic the server had before the rounds: an earlier build gets as much. */
  warmedSeconds: number;
  workers: number;
  shops: readonly TenantShop[];
  traffic: RoundTraffic;
  answers: readonly CeilingRoute[];
  /**
   * The earlier build's checkout, its environment (its database the prepared file, or a copy for its
   * schema), and node flags added to its start script.
   */
  base?: { dir: string; env: Record<string, string>; file: string; extraFlags: readonly string[] };
}

export async function roundPhase(setup: RoundSetup, log: (line: string) => void): Promise<RoundPhase> {
  const dir = mkdtempSync(join(tmpdir(), 'rebound-tenant-rounds-'));
  const started: Running[] = [];
  try {
    const ceiling = await startCeiling(dir, setup.answers, setup.workers);
    started.push(ceiling);
    const serverRss = new NodeRss(setup.server);
    const peaks = new Map<string, NodeRss>([['server', serverRss]]);
    const targets: RoundTarget[] = [{ name: 'server', url: setup.server.url, onSecond: () => serverRss.sample() }];
    if (setup.base) {
      const { dir: baseDir, env, file, extraFlags } = setup.base;
      const args = [...startFlags(baseDir), ...extraFlags, join(baseDir, 'dist/src/cli/main.js'), 'serve'];
      const base = await startProcess(
        args,
        { ...env, DATABASE_URL: `sqlite:${databaseFor(baseDir, file)}` },
        0,
        '/readyz',
      );
      started.push(base);
      const baseRss = new NodeRss(base);
      peaks.set('base', baseRss);
      log(
        `warming the earlier build (${baseDir}${extraFlags.length ? `, with ${extraFlags.join(' ')}` : ''}) ` +
          `with ${setup.warmedSeconds} s of the same traffic`,
      );
      await runTenantLoad(base.url, setup.shops, { ...setup.traffic, seconds: setup.warmedSeconds, warmupSeconds: 0 });
      targets.push({ name: 'base', url: base.url, onSecond: () => baseRss.sample() });
    }
    targets.push({ name: 'ceiling', url: ceiling.url });
    const byTarget = await alternate(targets, setup.shops, setup.traffic, setup.rounds, setup.seconds);
    const summary = summarize(byTarget, 'ceiling');
    report(summary, setup, log);
    const out: RoundPhase['targets'] = {};
    for (const [name, s] of Object.entries(summary)) {
      const peak = peaks.get(name);
      out[name] = peak ? { ...s, peakRssMb: Math.max(...peak.peakByPid.values(), peak.primaryPeak) } : s;
      if (peak) log(`  ${name}: peak RSS over its rounds ${out[name]!.peakRssMb} MB`);
    }
    return {
      rounds: setup.rounds,
      seconds: setup.seconds,
      ...(setup.base ? { base: setup.base.dir } : {}),
      targets: out,
    };
  } finally {
    for (const running of started.reverse()) await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(summary: Record<string, RoundSummary>, setup: RoundSetup, log: (line: string) => void): void {
  const names = Object.keys(summary);
  log(
    `\nalternating rounds: ${setup.rounds} × ${setup.seconds} s to each of ${names.join(', ')} (the order reversed ` +
      'every other round): req/s / hot p99 ms, and req/s ÷ the ceiling of the same round (median row: medians of each)',
  );
  log(`  round  ${names.map((n) => n.padStart(24)).join('')}`);
  const cell = (name: string, f: RoundFigure, ratio: number) =>
    `${f.rps} / ${f.hotP99Ms}${name === 'ceiling' ? '' : ` ${ratio.toFixed(2)}`}`.padStart(24);
  for (let r = 0; r < setup.rounds; r++) {
    const row = names.map((n) => {
      const f = summary[n]!.rounds[r]!;
      return cell(n, f, f.rps / Math.max(1, summary.ceiling!.rounds[r]!.rps));
    });
    log(`  ${String(r + 1).padStart(5)}  ${row.join('')}`);
  }
  log(`  median ${names.map((n) => cell(n, summary[n]!.median, summary[n]!.ratio)).join('')}`);
}
