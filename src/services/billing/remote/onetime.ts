import { sourceProperty } from '../../../domain/attribution/source.js';
import { randomUUID } from 'node:crypto';
import pRetry from 'p-retry';
import {
  chargeFromRemote,
  chargeHoldsOnetime,
  onetimeFromRemote,
  orderFromRemoteCharge,
  type RemoteCharge,
  type RemoteOnetime,
} from '../../../domain/billing/remote.js';
import { BadGatewayError } from '../../../domain/errors.js';
import { decodeOnetimeOutcome, type BillingProvider, type OnetimeOutcome, type OnetimePlan } from '../provider.js';
import { ProviderUnavailable } from './client.js';
import type { KeyedWrites } from './keyed-write.js';
import type { RemoteProviderDeps } from './provider.js';

/** The property that marks a one-time purchase with the request that made it, so a retry can find it. */
export const REQUEST_PROPERTY = '_rebound_request';

class NotYet extends Error {}

/**
 * One-time purchases on a remote provider: `POST /onetimes`, then with charge_now the charge
 * that holds it is processed. Each write is looked up before it is tried again, and the
 * idempotency key is kept by `keyedWrite`, so a retried request never buys or charges twice.
 */
export function createRemoteOnetimes(
  deps: RemoteProviderDeps,
  keyedWrite: KeyedWrites,
): BillingProvider['createOnetime'] {
  const { client, policy } = deps;

  async function findOnetime(addressId: number, marker: string): Promise<{ onetime: RemoteOnetime } | undefined> {
    const answer = await client.peek<{ onetimes?: RemoteOnetime[] }>(`/onetimes?address_id=${addressId}&limit=250`);
    const onetime = (answer?.onetimes ?? []).find((o) =>
      (o.properties ?? []).some((p) => p.name === REQUEST_PROPERTY && p.value === marker),
    );
    return onetime ? { onetime } : undefined;
  }

  /** The queued charge holding the purchase; the provider may take a moment to put it on one. */
  async function holdingCharge(addressId: number, onetimeId: number, resumed: boolean): Promise<RemoteCharge> {
    try {
      return await pRetry(
        async () => {
          const queued = await client.get<{ charges?: RemoteCharge[] }>(
            `/charges?address_id=${addressId}&status=queued&sort_by=scheduled_at-asc&limit=250`,
          );
          let found = (queued?.charges ?? []).find((c) => chargeHoldsOnetime(c, onetimeId));
          // A resumed request may find its charge processed by the try that lost its answer.
          if (!found && resumed)
            found = (
              await client.get<{ charges?: RemoteCharge[] }>(`/charges?address_id=${addressId}&limit=250`)
            )?.charges?.find((c) => chargeHoldsOnetime(c, onetimeId));
          if (!found) throw new NotYet('no charge holds the one-time purchase yet');
          return found;
        },
        {
          retries: policy.tries - 1,
          minTimeout: policy.backoffMs,
          randomize: true,
          maxRetryTime: policy.budgetMs,
          shouldRetry: ({ error }) => error instanceof NotYet,
        },
      );
    } catch (error) {
      if (error instanceof NotYet) throw new ProviderUnavailable(5, true);
      throw error;
    }
  }

  async function chargeNow(plan: OnetimePlan, onetime: RemoteOnetime, resumed: boolean): Promise<OnetimeOutcome> {
    const holding = await holdingCharge(plan.address.id, onetime.id, resumed);
    let processed: RemoteCharge;
    try {
      processed = (
        await client.write<{ charge: RemoteCharge }>('POST', `/charges/${holding.id}/process`, undefined, {
          // A charge no longer queued was processed by the try whose answer was lost: never process it again.
          lookup: async () => {
            const current = await client.peek<{ charge: RemoteCharge }>(`/charges/${holding.id}`);
            return current && current.charge.status?.toLowerCase() !== 'queued' ? current : undefined;
          },
          lookupFirst: holding.status?.toLowerCase() !== 'queued',
        })
      ).charge;
    } catch (error) {
      // A refusal may be the card: the charge's own status says.
      if (!(error instanceof BadGatewayError)) throw error;
      const current = await client.get<{ charge: RemoteCharge }>(`/charges/${holding.id}`);
      if (current?.charge.status?.toLowerCase() !== 'error') throw error;
      processed = current.charge;
    }
    const status = processed.status?.toLowerCase();
    if (status === 'success')
      return {
        kind: 'created',
        onetime: onetimeFromRemote(onetime),
        charge: chargeFromRemote(processed),
        order: orderFromRemoteCharge(processed),
      };
    const reason = processed.error || processed.error_type || `the charge ended ${status ?? 'without a status'}`;
    const cancelled = await cancel(onetime.id);
    const left = cancelled
      ? 'The one-time purchase was cancelled.'
      : `The one-time purchase could not be cancelled and stays on charge ${holding.id}.`;
    return {
      kind: 'payment_failed',
      charge: { ...chargeFromRemote(processed), status: 'ERROR' },
      message: `The charge failed: ${reason}. ${left}`,
    };
  }

  /** Takes a refused purchase off the customer's next charge; false when the provider would not. */
  async function cancel(onetimeId: number): Promise<boolean> {
    try {
      await client.write('DELETE', `/onetimes/${onetimeId}`, undefined, {
        lookup: async () => ((await client.peek(`/onetimes/${onetimeId}`)) === null ? {} : undefined),
      });
      return true;
    } catch (error) {
      deps.log?.warn(
        { err: error, onetime: onetimeId },
        'a one-time purchase whose charge failed could not be cancelled',
      );
      return false;
    }
  }

  async function run(
    plan: OnetimePlan,
    marker: string,
    resumed: boolean,
    progress = { created: false },
  ): Promise<OnetimeOutcome> {
    const body = {
      address_id: plan.address.id,
      next_charge_scheduled_at: plan.date,
      quantity: plan.quantity,
      external_product_id: { ecommerce: String(plan.productId) },
      external_variant_id: { ecommerce: String(plan.variantId) },
      properties: [{ name: REQUEST_PROPERTY, value: marker }, ...sourceProperty(plan.source)],
    };
    const created = await client.write<{ onetime: RemoteOnetime }>('POST', '/onetimes', body, {
      lookup: () => findOnetime(plan.address.id, marker),
      lookupFirst: resumed,
    });
    progress.created = true;
    if (!plan.chargeNow)
      return { kind: 'created', onetime: onetimeFromRemote(created.onetime), charge: null, order: null };
    return chargeNow(plan, created.onetime, resumed);
  }

  return async (shopId, plan, idempotency) => {
    if (!idempotency) return { ...(await run(plan, randomUUID(), false)), replayed: false };
    const { outcome, replayed } = await keyedWrite(
      shopId,
      idempotency,
      (marker, resumed, progress) => run(plan, marker, resumed, progress),
      decodeOnetimeOutcome,
    );
    return { ...outcome, replayed };
  };
}
