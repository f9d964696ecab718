/**
 * `metadata.source`: which answer a product came from (docs/attribution.md, "Sources").
 * `ruleset:<id>:v<version>` for the custom endpoint, with `:arm:<name>` when an experiment chose
 * the answer, and `list:<name>` for the list endpoints. The storefront echoes it back in tracking
 * events and in the `_rebound_source` line-item property.
 */

/** The longest source accepted from a client: an arm name is at most 64 characters. */
export const MAX_SOURCE_LENGTH = 160;

/** The line-item property a storefront's add-to-cart carries the source in. */
export const SOURCE_PROPERTY = '_rebound_source';

export type ParsedSource =
  | { kind: 'ruleset'; rulesetId: number; version: number; arm: string | null }
  | { kind: 'list'; name: string };

/** The source of a ruleset's answer; `arm` when an experiment chose it. */
export function rulesetSource(rulesetId: number, version: number, arm: string | null = null): string {
  return `ruleset:${rulesetId}:v${version}${arm === null ? '' : `:arm:${arm}`}`;
}

/** The source of a list endpoint's answer, from its path (`/products/trending_products` → `list:trending_products`). */
export function listSource(path: string): string {
  return `list:${path.slice(path.lastIndexOf('/') + 1)}`;
}

/** The source of the platform widget's events and sales: `widget:<widget_id>`; null without a widget. */
export function widgetSource(widgetId: string | null): string | null {
  return widgetId === null ? null : `widget:${widgetId}`;
}

/** A sale's `_rebound_source` property, when it has a source. */
export function sourceProperty(source: string | null): { name: string; value: string }[] {
  return source === null ? [] : [{ name: SOURCE_PROPERTY, value: source }];
}

const RULESET = /^ruleset:(\d{1,15}):v(\d{1,15})(?::arm:(.{1,64}))?$/s;
const LIST = /^list:([a-z][a-z_]{0,62})$/;

/** Reads a source a client sent back; null when it is not one of ours (it is still stored as sent). */
export function parseSource(text: string): ParsedSource | null {
  const ruleset = RULESET.exec(text);
  if (ruleset)
    return { kind: 'ruleset', rulesetId: Number(ruleset[1]), version: Number(ruleset[2]), arm: ruleset[3] ?? null };
  const list = LIST.exec(text);
  return list ? { kind: 'list', name: list[1]! } : null;
}
