/** The parts of jstat (which ships no types) the experiment statistics and the evaluation use. */
declare module 'jstat' {
  interface Continuous2 {
    pdf(x: number, a: number, b: number): number;
    cdf(x: number, a: number, b: number): number;
    inv(p: number, a: number, b: number): number;
  }
  const jStat: {
    normal: Continuous2;
    beta: Continuous2;
    gamma: Continuous2;
    percentile(values: number[], k: number, exclusive?: boolean): number;
  };
  export default jStat;
}
