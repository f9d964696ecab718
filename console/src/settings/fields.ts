import type { Shop } from '../types';

export type Settings = Shop['settings'];
export type SettingName = keyof Settings;

/** One shop setting in the merchant's words: what it does, its default, and how it is entered. */
export interface SettingField {
  name: SettingName;
  label: string;
  help: string;
  /** What applies while the setting is not set. */
  fallback: string;
  kind:
    | { type: 'number'; min: number; max: number; step?: number; unit: string }
    | { type: 'choice'; options: [string, string][] }
    | { type: 'switch' };
  /** Only the operator token changes it. */
  operator?: boolean;
}

export const SETTING_GROUPS: { title: string; fields: SettingField[] }[] = [
  {
    title: 'Best sellers and trending',
    fields: [
      {
        name: 'trending_window_days',
        label: 'Trending looks back',
        help: 'How far back orders count for “Trending now”.',
        fallback: '30 days',
        kind: { type: 'number', min: 1, max: 365, unit: 'days' },
      },
      {
        name: 'trending_half_life_days',
        label: 'Trending fades by half every',
        help: 'Older orders weigh less: after this many days, half as much.',
        fallback: '14 days',
        kind: { type: 'number', min: 0.5, max: 365, step: 0.5, unit: 'days' },
      },
      {
        name: 'trending_counts',
        label: 'Trending counts',
        help: 'Orders holding the product, or units sold.',
        fallback: 'orders',
        kind: {
          type: 'choice',
          options: [
            ['orders', 'Orders'],
            ['units', 'Units sold'],
          ],
        },
      },
    ],
  },
  {
    title: 'Recommendations',
    fields: [
      {
        name: 'recommended_similarity',
        label: '“Bought together” measures',
        help: 'How strongly two products go together.',
        fallback: 'weighted',
        kind: {
          type: 'choice',
          options: [
            ['weighted', 'Weighted (recommended)'],
            ['count', 'Times bought together'],
            ['jaccard', 'Overlap of buyers'],
            ['lift', 'Lift'],
          ],
        },
      },
      {
        name: 'recommended_support_threshold',
        label: 'Pairs need at least',
        help: 'Products bought together fewer times are not paired.',
        fallback: '1 time',
        kind: { type: 'number', min: 1, max: 1000, unit: 'times' },
      },
      {
        name: 'recommended_basis',
        label: 'Together means',
        help: 'In the same order, or by the same customer.',
        fallback: 'same order',
        kind: {
          type: 'choice',
          options: [
            ['order', 'In the same order'],
            ['customer', 'By the same customer'],
          ],
        },
      },
      {
        name: 'for_you_include_purchased',
        label: '“Picked for you” may show products the customer already bought',
        help: 'Most repeat purchases are of the same products.',
        fallback: 'on',
        kind: { type: 'switch' },
      },
      {
        name: 'affinity_half_life_days',
        label: 'A purchase fades by half every',
        help: 'For personal picks.',
        fallback: '180 days',
        kind: { type: 'number', min: 1, max: 3650, unit: 'days' },
      },
    ],
  },
  {
    title: 'Earnings and reactivation',
    fields: [
      {
        name: 'attribution_window_hours',
        label: 'A click earns an order placed within',
        help: 'Orders after a click on a recommendation count for it this long.',
        fallback: '24 hours',
        kind: { type: 'number', min: 0.25, max: 2160, step: 0.25, unit: 'hours' },
      },
      {
        name: 'reactivate_on_get',
        label: 'Reactivate as soon as the link is opened',
        help: 'Off: the customer confirms on the page (mail scanners open links).',
        fallback: 'off',
        kind: { type: 'switch' },
      },
    ],
  },
  {
    title: 'Limits (set by the operator)',
    fields: [
      {
        name: 'rate_limit_public_per_minute',
        label: 'Storefront requests per minute per visitor',
        help: '',
        fallback: '1,000',
        kind: { type: 'number', min: 1, max: 10_000_000, unit: 'a minute' },
        operator: true,
      },
      {
        name: 'rate_limit_private_per_minute',
        label: 'Private-key requests per minute',
        help: '',
        fallback: '6,000',
        kind: { type: 'number', min: 1, max: 10_000_000, unit: 'a minute' },
        operator: true,
      },
    ],
  },
];

/** The settings without one of them: it goes back to its default. */
export function without(settings: Settings, name: SettingName): Settings {
  const next = { ...settings };
  delete next[name];
  return next;
}
