// Module hooks (they run on a thread of their own, in the process whose modules they see).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const dir = process.env.MODULE_LOG_DIR;
  if (dir) appendFileSync(join(dir, String(process.pid)), `${resolved.url}\n`);
  return resolved;
}
