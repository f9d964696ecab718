// `node --import ./test/cluster/module-log.mjs …`: every module a process of the node resolves is
// appended to MODULE_LOG_DIR/<pid> (test/cluster/lean-primary.test.ts reads what the primary loaded).
import { register } from 'node:module';

register('./module-log-hooks.mjs', import.meta.url);
