import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface Running {
  child: ChildProcess;
  url: string;
  startMs: number;
  output: () => string;
  rssMb: () => number;
  stop: () => Promise<void>;
}

/** Resident memory of a process, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function waitFor(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

/** Starts a node script as a child process and waits until `readyPath` answers 200. */
export async function startProcess(args: string[], env: Record<string, string>, port: number, readyPath: string): Promise<Running> {
  const started = performance.now();
  let output = '';
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  // Never leave a server behind, whatever happens to the script.
  const reap = () => { if (child.exitCode === null) child.kill('SIGKILL'); };
  process.once('exit', reap);
  child.once('exit', () => process.removeListener('exit', reap));
  child.stdout!.on('data', (d: Buffer) => { output += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { output += d.toString(); });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}${readyPath}`, child, 120_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return {
    child,
    url,
    startMs: Math.round(performance.now() - started),
    output: () => output,
    rssMb: () => rssMb(child.pid!),
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}
