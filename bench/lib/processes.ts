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
  /** CPU time the process has used so far (ms). */
  cpuMs: () => number;
  stop: () => Promise<void>;
}

/** Resident memory of a process, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** CPU time (user + system) a process has used so far, from /proc (Linux), in ms. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name; clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function waitFor(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

/** The URL a server started with PORT=0 prints once it listens (`Listening on http://…`). */
async function announcedUrl(output: () => string, child: ChildProcess, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = /Listening on (http:\/\/[^\s]+)/.exec(output())?.[1];
    if (found) return found.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no "Listening on" line after ${timeoutMs} ms`);
}

/**
 * Starts a node script as a child process and waits until `readyPath` answers 200. With port 0
 * the system picks a free port and the server's announced address is used.
 */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  port: number,
  readyPath: string,
): Promise<Running> {
  const started = performance.now();
  let output = '';
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Never leave a server behind, whatever happens to the script.
  const reap = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', reap);
  child.once('exit', () => process.removeListener('exit', reap));
  child.stdout!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  let url = `http://127.0.0.1:${port}`;
  try {
    if (port === 0) url = await announcedUrl(() => output, child, 120_000);
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
    cpuMs: () => cpuMs(child.pid!),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The node flags `npm start` gives the server of a checkout (its package.json's start script). */
export function startFlags(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: { start: string } };
  // `node <flags> <script> <arguments>`: the flags are the words between node and the script.
  const words = manifest.scripts.start.trim().split(/\s+/).slice(1);
  const script = words.findIndex((word) => !word.startsWith('-'));
  return script === -1 ? words : words.slice(0, script);
}
