import type { ShopSettings } from '../shop.js';
import type { Basis, SarSimilarity } from './sar.js';

/** What `/products/recommended` ranks by: SAR's similarities, or the weighted co-occurrence (the default). */
export type RecommendedSimilarity = SarSimilarity | 'weighted';

/** The shop settings a model is built with. */
export interface ModelSettings {
  similarity: RecommendedSimilarity;
  threshold: number;
  basis: Basis;
  affinityHalfLifeDays: number;
}

/** Defaults chosen on held-out orders (docs/evaluation.md). */
export const DEFAULT_MODEL_SETTINGS: ModelSettings = {
  similarity: 'weighted',
  threshold: 1,
  basis: 'order',
  affinityHalfLifeDays: 180,
};

/** A shop's model settings, defaults filled. */
export function modelSettingsOf(settings: ShopSettings): ModelSettings {
  return {
    similarity: settings.recommended_similarity ?? DEFAULT_MODEL_SETTINGS.similarity,
    threshold: settings.recommended_support_threshold ?? DEFAULT_MODEL_SETTINGS.threshold,
    basis: settings.recommended_basis ?? DEFAULT_MODEL_SETTINGS.basis,
    affinityHalfLifeDays: settings.affinity_half_life_days ?? DEFAULT_MODEL_SETTINGS.affinityHalfLifeDays,
  };
}
