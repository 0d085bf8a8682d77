export function pairedRatio(pairs: number[]): {
  n: number;
  median: number | null;
  low: number | null;
  high: number | null;
  worse: boolean | null;
};
