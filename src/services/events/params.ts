import type { StoreEvent } from '../../domain/events.js';
import { type EventParams, requireIdentity } from '../../domain/params/event.js';

/** The stored form of an event read from its parameters. */
export function eventOf(values: EventParams, now: number): StoreEvent {
  requireIdentity(values);
  return {
    uuid: values.uuid,
    customer_id: values.shop_customer_id,
    subject: values.subject,
    verb: values.verb,
    noun: values.noun,
    handle: values.shop_product_handle,
    subject_email: values.subject_email,
    theme_id: values.theme_id,
    created_at: now,
  };
}
