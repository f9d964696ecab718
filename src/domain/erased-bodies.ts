/** What an erasure covers, as a stored webhook body may name it. */
export interface ErasedSubjects {
  customerId: number;
  /** Lower-cased. */
  emails: ReadonlySet<string>;
  /** The orders the request named to redact. */
  orderIds: ReadonlySet<number>;
}

/**
 * Whether a stored webhook body names what an erasure covers: the customer by id (the body of a
 * customer topic, an order's customer, a `customer_id`), one of their e-mails as any value in it, or
 * an order to redact (an order topic's body, or a refund, fulfillment or transaction naming the
 * order). Its text is searched first for the id's digits and the e-mails, which also occur where they
 * name nothing of the customer's: customer 2026 in every body written in 2026, `bob@x.com` within
 * `jimbob@x.com`. Those bodies are other customers' and stay.
 */
export function bodyNamesErased(topic: string, body: unknown, erased: ErasedSubjects): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const fields = body as Record<string, unknown>;
  const customer = fields.customer;
  if (topic.startsWith('customers') && sameId(fields.id, erased.customerId)) return true;
  if (customer !== null && typeof customer === 'object' && sameId((customer as { id?: unknown }).id, erased.customerId))
    return true;
  if (sameId(fields.customer_id, erased.customerId)) return true;
  if (erased.orderIds.size > 0) {
    if (topic.startsWith('orders/') && erased.orderIds.has(Number(fields.id))) return true;
    if (erased.orderIds.has(Number(fields.order_id))) return true;
  }
  return erased.emails.size > 0 && holdsEmail(body, erased.emails);
}

function sameId(value: unknown, id: number): boolean {
  return (typeof value === 'number' || typeof value === 'string') && value !== '' && Number(value) === id;
}

/** Whether any string value of the document is one of the e-mails (any case, spaces around it aside). */
function holdsEmail(document: unknown, emails: ReadonlySet<string>): boolean {
  const pending: unknown[] = [document];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('@') && emails.has(value.trim().toLowerCase())) return true;
    } else if (Array.isArray(value)) for (const item of value) pending.push(item);
    else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) pending.push(item);
  }
  return false;
}

/** A stored body's document; undefined when its text is not JSON. */
export function parsedBody(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}
