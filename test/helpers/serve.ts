import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * `rebound serve` from the sources, as an operator starts it: what it prints (stdout and stderr
 * together), its exit, and a kill when the test ends with it still running.
 */
export function serveFromSources(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], { cwd: ROOT, env });
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let out = '';
  const collect = (d: Buffer) => {
    out += d.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, exited, output: () => out };
}
