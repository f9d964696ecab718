import cluster from 'node:cluster';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { CatalogIndex } from '../../../indexes/catalog-index.js';
import { requireOperator } from '../../plugins/admin-auth.js';
import { Errors } from '../../schemas/errors.js';

const NodeResidency = Type.Object({
  shops: Type.Array(Type.Object({ id: Type.Integer(), handle: Type.String(), estimated_bytes: Type.Integer() }), {
    description: 'resident shops, the next to be evicted first (fewest requests lately, then least recently used)',
  }),
  estimated_bytes: Type.Integer(),
  allowance_bytes: Type.Union([Type.Integer(), Type.Null()], { description: 'null when no budget applies' }),
  loads: Type.Integer(),
  evictions: Type.Integer(),
  worker: Type.Union([Type.Integer(), Type.Null()], {
    description: 'the worker process that answered (REBOUND_WORKERS > 1: each holds its own shops); null for one',
  }),
  pid: Type.Integer(),
});

/**
 * What this process holds in memory (docs/scaling.md): for operators checking how shops spread over nodes.
 * With several workers a request without a shop's key goes to any of them: the answer names which.
 */
export function nodeRoutes(app: FastifyInstance, catalog: Pick<CatalogIndex, 'listResident' | 'residency'>): void {
  app.get(
    '/node/residency',
    {
      schema: {
        summary: 'Shops this node holds in memory, and its memory budget (operator token)',
        tags: ['admin: operations'],
        response: { 200: NodeResidency, ...Errors },
      },
    },
    async (request) => {
      requireOperator(request);
      const { residency } = catalog;
      const allowance = residency.allowanceBytes;
      return {
        shops: catalog.listResident().map((s) => ({ id: s.id, handle: s.handle, estimated_bytes: s.bytes })),
        estimated_bytes: residency.estimatedBytes(),
        allowance_bytes: Number.isFinite(allowance) ? allowance : null,
        loads: residency.loads,
        evictions: residency.evictions,
        worker: cluster.worker?.id ?? null,
        pid: process.pid,
      };
    },
  );
}
