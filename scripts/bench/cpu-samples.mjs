// The arithmetic of the bench's CPU profiles (ADR 0027), with no I/O so that
// test/unit/cpu-samples.test.ts can check it on made-up profiles.

export const SAMPLING_INTERVAL_US = 100;
const IDLE = "(idle)";
const NOT_FUNCTIONS = new Set(["(root)", IDLE]);

// The longest gap one sample may stand for. Samples come every SAMPLING_INTERVAL_US while
// the isolate runs; a longer gap after a JavaScript sample means the thread left the isolate
// (waiting, with no "(idle)" sample recorded yet) or was not on a core: neither is CPU time.
// 0.25 ms: while the isolate runs, 99 % of gaps are 0.1-0.2 ms even on a loaded machine. With
// 2 ms, descheduled gaps and the wait after each D1 call counted as CPU, and the calibration's
// spin twice as long measured x1.9-3.0 the CPU; with 0.25 ms x2.0-2.1, and the spin's CPU was
// what a quiet machine measures (ADR 0027, "The gap a sample stands for").
const MAX_SAMPLE_MS = 0.25;

/**
 * The CPU of requests that one profile spanned (issue 40: starting a profile re-logs the
 * isolate's code, 30-270 ms each time, which made one profile per request the CPU pass's
 * cost). `marks` are the moments each request was sent, ascending, in microseconds on the
 * profile's own clock: workerd's V8 and Node both read the host's monotonic clock, so the
 * bench's `process.hrtime` is that clock. A sample belongs to the last mark at or before it,
 * so a request owns everything its isolate did until the next request to it, including work
 * after its response. Samples before the first mark are nobody's. Returns per mark its CPU
 * ms (every sample but "(idle)": JavaScript, "(program)", "(garbage collector)") and self ms
 * per function key (`keyOf(callFrame)`).
 *
 * timeDeltas[i] is the time from sample i-1 to sample i, so the time until the next sample
 * belongs to sample i (as Chrome DevTools counts it); a request's last sample, whose end is
 * unknown, counts one interval.
 */
export function splitProfile(profile, marks, keyOf = (frame) => frameKey(frame)) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const keys = new Map();
  const out = marks.map(() => ({ cpuMs: 0, functions: new Map() }));
  const { samples, timeDeltas } = profile;
  let at = profile.startTime;
  let k = -1;
  for (let i = 0; i < samples.length; i++) {
    at += timeDeltas[i];
    while (k + 1 < marks.length && marks[k + 1] <= at) k++;
    const { callFrame } = byId.get(samples[i]);
    if (k < 0 || callFrame.functionName === IDLE) continue;
    // The isolate records no samples while it waits, so the last sample before the next
    // request was sent ends when the isolate went idle, which is unknown: one interval, as
    // for a profile's last sample.
    const last = i + 1 === samples.length || (k + 1 < marks.length && at + timeDeltas[i + 1] >= marks[k + 1]);
    const raw = last ? SAMPLING_INTERVAL_US / 1000 : timeDeltas[i + 1] / 1000;
    const ms = Math.min(Math.max(0, raw), MAX_SAMPLE_MS);
    out[k].cpuMs += ms;
    if (NOT_FUNCTIONS.has(callFrame.functionName)) continue;
    if (!keys.has(callFrame)) keys.set(callFrame, keyOf(callFrame));
    const key = keys.get(callFrame);
    out[k].functions.set(key, (out[k].functions.get(key) ?? 0) + ms);
  }
  return out;
}

/** "name (source:line)" for a call frame, through the bundle's source map when there is one. */
export function frameKey({ functionName, url, lineNumber, columnNumber }, locate) {
  const name = functionName || "(anonymous)";
  if (!url || lineNumber < 0) return name;
  const at = locate?.(url, lineNumber, columnNumber);
  return at ? `${at.name ?? name} (${at.where})` : `${name} (${url.split("/").pop()}:${lineNumber + 1})`;
}

/** One profile that spanned one request: `splitProfile` with the request sent at its start. */
export const cpuOfProfile = (profile, keyOf) => splitProfile(profile, [Number.NEGATIVE_INFINITY], keyOf)[0];

export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
export const r2 = (x) => Math.round(x * 100) / 100;

export function summarize({ cpu, wall, functions }, top = 5) {
  const total = cpu.reduce((a, b) => a + b, 0);
  return {
    requests: cpu.length,
    cpuP50: r2(pct(cpu, 50)),
    cpuP99: r2(pct(cpu, 99)),
    cpuMean: r2(total / cpu.length),
    wallP50: r2(pct(wall, 50)),
    top: [...functions]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, ms]) => ({ fn, msPerRequest: r2(ms / cpu.length), share: Math.round((ms / total) * 100) })),
    byModule: [
      ...[...functions].reduce((acc, [fn, ms]) => acc.set(moduleOf(fn), (acc.get(moduleOf(fn)) ?? 0) + ms), new Map()),
    ]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([module, ms]) => ({ module, msPerRequest: r2(ms / cpu.length), share: Math.round((ms / total) * 100) })),
  };
}

/** The package (or app folder) a "name (source:line)" key comes from, for the per-page summary. */
export function moduleOf(key) {
  const source = /\(([^()]+):\d+\)$/.exec(key)?.[1];
  if (!source) return key.startsWith("(") ? key : "runtime (native)";
  const parts = source.split("/");
  // App code by folder (app/routes, app/models, ...), packages by name.
  if (parts[0] === "app" || parts[0].startsWith("@")) return parts.slice(0, 2).join("/");
  return parts[0];
}
