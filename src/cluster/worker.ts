import cluster from 'node:cluster';

/**
 * A worker of a node stops with its primary: when the primary is gone (killed, even with SIGKILL,
 * which it cannot pass on), the IPC channel closes and the worker shuts down as on SIGTERM,
 * instead of holding the port and the database with no one to stop it.
 */
export function stopWithPrimary(): void {
  if (!cluster.isWorker) return;
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
