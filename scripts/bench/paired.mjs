// The toolchains' comparison (toolchains.mjs) times two servers in the same rounds, so each
// round gives one ratio new ÷ old in which the shared machine's drift cancels. Their median and
// a distribution-free 95 % interval (the binomial's order statistics, normal approximation) say
// whether "new" is slower beyond the noise: only when the whole interval lies above 1.
export function pairedRatio(pairs) {
  const sorted = [...pairs].filter(Number.isFinite).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { n, median: null, low: null, high: null, worse: null };
  const k = Math.max(0, Math.floor(n / 2 - 0.98 * Math.sqrt(n)));
  const [low, high] = [sorted[k], sorted[n - 1 - k]];
  return { n, median: sorted[Math.floor(n / 2)], low, high, worse: low > 1 };
}
