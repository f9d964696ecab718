import jStat from 'jstat';

/** A rate with its 95% interval; every field null when there is nothing to rest it on. */
export interface Estimate {
  value: number | null;
  low: number | null;
  high: number | null;
}

const NONE: Estimate = { value: null, low: null, high: null };
/** The two-sided 95% normal quantile. */
const Z = jStat.normal.inv(0.975, 0, 1);

/**
 * A proportion k of n with the Wilson score interval: good coverage even for rare events and
 * small n, where the textbook p ± z·se interval undercovers and can leave [0, 1].
 */
export function proportion(k: number, n: number): Estimate {
  if (n <= 0) return NONE;
  const p = k / n;
  if (k < 0 || k > n) return { value: p, low: null, high: null }; // not a proportion: no binomial interval to defend
  const z2 = Z * Z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { value: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Events per visitor (a visitor may add several products to a cart) with the exact Poisson
 * (Garwood) interval of the rate: k events over n visitors.
 */
export function ratePerVisitor(k: number, n: number): Estimate {
  if (n <= 0 || k < 0) return NONE;
  const low = k === 0 ? 0 : jStat.gamma.inv(0.025, k, 1) / n;
  const high = jStat.gamma.inv(0.975, k + 1, 1) / n;
  return { value: k / n, low, high };
}

/**
 * The mean of a per-visitor value (revenue) from n, Σx and Σx², with the normal interval of the
 * mean (central limit theorem). Needs two visitors with a value: before that the spread is unknown.
 */
export function mean(n: number, sum: number, sumSq: number, nonZero: number): Estimate {
  if (n <= 0) return NONE;
  const value = sum / n;
  if (n < 2 || nonZero < 2) return { value, low: null, high: null };
  const se = standardError(n, sum, sumSq);
  return { value, low: Math.max(0, value - Z * se), high: value + Z * se };
}

function standardError(n: number, sum: number, sumSq: number): number {
  const m = sum / n;
  const variance = Math.max(0, (sumSq - n * m * m) / (n - 1));
  return Math.sqrt(variance / n);
}

/**
 * P(the arm's conversion > the first arm's), with uniform priors: Beta(1 + k, 1 + n − k)
 * posteriors, integrated numerically on a fixed grid (deterministic, bounded cost).
 */
export function probabilityBeatsProportion(
  first: { k: number; n: number },
  arm: { k: number; n: number },
): number | null {
  if (first.n <= 0 || arm.n <= 0 || first.k > first.n || arm.k > arm.n || first.k < 0 || arm.k < 0) return null;
  const a = { alpha: 1 + first.k, beta: 1 + first.n - first.k };
  const b = { alpha: 1 + arm.k, beta: 1 + arm.n - arm.k };
  const sd = (p: { alpha: number; beta: number }) =>
    Math.sqrt((p.alpha * p.beta) / ((p.alpha + p.beta) ** 2 * (p.alpha + p.beta + 1)));
  const meanOf = (p: { alpha: number; beta: number }) => p.alpha / (p.alpha + p.beta);
  // The integrand f_B(x)·F_A(x) lives where B's density does: ±12 standard deviations covers it.
  const from = Math.max(0, meanOf(b) - 12 * sd(b));
  const to = Math.min(1, meanOf(b) + 12 * sd(b));
  const steps = 2000;
  const h = (to - from) / steps;
  let total = 0;
  let mass = 0;
  for (let i = 0; i <= steps; i++) {
    const x = from + i * h;
    const weight = i === 0 || i === steps ? 0.5 : 1;
    const density = jStat.beta.pdf(x, b.alpha, b.beta);
    total += weight * density * jStat.beta.cdf(x, a.alpha, a.beta);
    mass += weight * density;
  }
  // Normalising by the integrated density removes the grid's own error in B's mass.
  return mass > 0 ? clamp01(total / mass) : null;
}

/** P(the arm's mean > the first arm's) from the normal approximations of both means. */
export function probabilityBeatsMean(
  first: { n: number; sum: number; sumSq: number },
  arm: { n: number; sum: number; sumSq: number },
): number | null {
  if (first.n < 2 || arm.n < 2) return null;
  const se = Math.hypot(standardError(first.n, first.sum, first.sumSq), standardError(arm.n, arm.sum, arm.sumSq));
  const difference = arm.sum / arm.n - first.sum / first.n;
  if (se === 0) return difference === 0 ? null : difference > 0 ? 1 : 0;
  return clamp01(jStat.normal.cdf(difference / se, 0, 1));
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
