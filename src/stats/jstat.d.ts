/** Types for the parts of jstat that src/stats/distributions.ts uses (the package ships none). */
declare module 'jstat' {
  interface Dist1 {
    cdf(x: number, a: number): number;
    inv(p: number, a: number): number;
  }
  interface Dist2 {
    cdf(x: number, a: number, b: number): number;
    inv(p: number, a: number, b: number): number;
    pdf(x: number, a: number, b: number): number;
  }
  const jStat: {
    normal: Dist2;
    studentt: Dist1;
    chisquare: Dist1;
    binomial: { cdf(k: number, n: number, p: number): number; pdf(k: number, n: number, p: number): number };
  };
  export default jStat;
}
