import { FormatRegistry } from '@sinclair/typebox';
import { isCalendarDate } from '../rules/local-time.js';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const PARTS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(?:Z|[+-](\d{2}):?(\d{2}))?$/i;

/**
 * Whether a timestamp the shape allows names a real instant: a calendar day (`Date.parse` reads
 * 30 February as 2 March), a time of day, an offset of at most 23:59. Checked when a row is
 * validated, so a stored date is the date that was sent.
 */
export function isRealTimestamp(text: string): boolean {
  const parts = PARTS.exec(text);
  if (!parts) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] = parts
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  return (
    isCalendarDate(year!, month!, day!) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59
  );
}

/** Formats the input schemas use, registered once for TypeBox's checker (Fastify's Ajv has its own). */
export function registerFormats(): void {
  if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (v) => DATE_TIME.test(v) && isRealTimestamp(v));
  // The billing ledger's timestamps (UTC, no offset; a date alone is midnight): their shape is the schema's pattern.
  if (!FormatRegistry.Has('real-timestamp')) FormatRegistry.Set('real-timestamp', isRealTimestamp);
}
registerFormats();
