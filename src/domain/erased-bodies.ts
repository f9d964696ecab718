/** What an erasure covers, as a stored webhook body may name it. */
export interface ErasedSubjects {
  customerId: number;
  /** Lower-cased. */
  emails: ReadonlySet<string>;
  /** The orders the request named to redact. */
  orderIds: ReadonlySet<number>;
  /** The phones the request named, as it wrote them. */
  phones: readonly string[];
}

/**
 * Whether a stored webhook body is about the customer by its fields: their customer body, an
 * order's customer, a `customer_id`, or one of their e-mails as the body's own or its customer's
 * address. What a data request exports: another customer's order that mentions the address in a
 * note is that customer's, not this one's.
 */
export function bodyIsAbout(topic: string, body: unknown, customerId: number, emails: ReadonlySet<string>): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const fields = body as Record<string, unknown>;
  const customer = (fields.customer ?? null) as Record<string, unknown> | null;
  if (topic.startsWith('customers') && sameId(fields.id, customerId)) return true;
  if (customer !== null && typeof customer === 'object' && sameId(customer.id, customerId)) return true;
  if (sameId(fields.customer_id, customerId)) return true;
  return [fields.email, fields.contact_email, customer?.email].some(
    (email) => typeof email === 'string' && emails.has(email.trim().toLowerCase()),
  );
}

/**
 * Whether a stored webhook body names what an erasure covers, and so loses its text: it is about
 * the customer (`bodyIsAbout`), it is an order to redact (an order topic's body, or a refund,
 * fulfillment or transaction naming the order), or its text holds one of their e-mails as a whole
 * address (a gift note to them) or one of the phones as the request wrote it. Candidates are found
 * by their text first, which also matches where nothing of the customer's is: customer 2026's digits
 * in every body written in 2026, `bob@x.com` within `jimbob@x.com`. Those bodies stay. A body that
 * is not JSON goes on its text alone.
 */
export function bodyNamesErased(topic: string, text: string, erased: ErasedSubjects): boolean {
  const body = parsedBody(text);
  if (body === undefined) return true;
  if (bodyIsAbout(topic, body, erased.customerId, erased.emails)) return true;
  if (body !== null && typeof body === 'object' && erased.orderIds.size > 0) {
    const fields = body as Record<string, unknown>;
    if (topic.startsWith('orders/') && erased.orderIds.has(Number(fields.id))) return true;
    if (erased.orderIds.has(Number(fields.order_id))) return true;
  }
  const lower = text.toLowerCase();
  for (const email of erased.emails) if (holdsAddress(lower, email)) return true;
  return erased.phones.some((phone) => phone.trim() !== '' && text.includes(phone.trim()));
}

function sameId(value: unknown, id: number): boolean {
  return (typeof value === 'number' || typeof value === 'string') && value !== '' && Number(value) === id;
}

/** A character an address may hold before its `@` (what may precede it within a longer one). */
const LOCAL_PART = /[a-z0-9._%+\-']/;
/** A character that would carry the domain on (a `.` only when more of the domain follows). */
const DOMAIN_ON = /[a-z0-9_-]/;

/**
 * Whether lower-cased text holds this lower-cased address whole: not within a longer one
 * (`jimbob@x.com`, `bob@x.com.au`), and wherever it stands (a key `march:bob@x.com`, a note
 * `Gift for <bob@x.com>.`).
 */
export function holdsAddress(text: string, address: string): boolean {
  if (address === '') return false;
  for (let at = text.indexOf(address); at !== -1; at = text.indexOf(address, at + 1)) {
    const before = at === 0 ? '' : text[at - 1]!;
    const end = at + address.length;
    const after = text[end] ?? '';
    const carriesOn = DOMAIN_ON.test(after) || (after === '.' && DOMAIN_ON.test(text[end + 1] ?? ''));
    if (!LOCAL_PART.test(before) && !carriesOn) return true;
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
