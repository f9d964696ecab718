import { Session } from 'node:inspector';

interface SampledNode {
  selfSize: number;
  children: SampledNode[];
}

/** The bytes `run` allocates on the V8 heap, garbage included (V8's sampling heap profiler, every 4 KB on average). */
export async function allocatedBytes(run: () => Promise<unknown>): Promise<number> {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))),
    );
  try {
    await post('HeapProfiler.enable');
    // Objects collected meanwhile count too: what a load allocates is mostly garbage by its end.
    await post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    await run();
    const { profile } = await post<{ profile: { head: SampledNode } }>('HeapProfiler.stopSampling');
    const total = (node: SampledNode): number => node.children.reduce((n, c) => n + total(c), node.selfSize);
    return total(profile.head);
  } finally {
    session.disconnect();
  }
}
