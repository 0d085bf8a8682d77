// The arithmetic of the bench's CPU profiles (ADR 0027), with no I/O so that
// test/unit/cpu-samples.test.ts can check it on made-up profiles.

export const SAMPLING_INTERVAL_US = 100;
const IDLE = "(idle)";
const NOT_FUNCTIONS = new Set(["(root)", IDLE]);

// The longest gap one sample may stand for. Samples come every SAMPLING_INTERVAL_US while
// the isolate runs; a longer gap after a JavaScript sample means the thread left the isolate
// (waiting, with no "(idle)" sample recorded yet) or was not on a core: neither is CPU time.
const MAX_SAMPLE_MS = 2;

/**
 * Self time per profile node. timeDeltas[i] is the time from sample i-1 to sample i, so the
 * time until the next sample belongs to sample i (as Chrome DevTools counts it); the last
 * sample, whose end is unknown, counts one interval.
 */
function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i]);
    const raw = i + 1 < samples.length ? timeDeltas[i + 1] / 1000 : SAMPLING_INTERVAL_US / 1000;
    const dt = node.callFrame.functionName === IDLE ? raw : Math.min(Math.max(0, raw), MAX_SAMPLE_MS);
    self.set(node, (self.get(node) ?? 0) + dt);
  }
  return self;
}

/** "name (source:line)" for a call frame, through the bundle's source map when there is one. */
export function frameKey({ functionName, url, lineNumber, columnNumber }, locate) {
  const name = functionName || "(anonymous)";
  if (!url || lineNumber < 0) return name;
  const at = locate?.(url, lineNumber, columnNumber);
  return at ? `${at.name ?? name} (${at.where})` : `${name} (${url.split("/").pop()}:${lineNumber + 1})`;
}

/**
 * One profile (one request): its CPU ms, every sample but "(idle)" (JavaScript, "(program)",
 * "(garbage collector)"), and self ms per function key (`keyOf(callFrame)`).
 */
export function cpuOfProfile(profile, keyOf = (frame) => frameKey(frame)) {
  let cpuMs = 0;
  const functions = new Map();
  for (const [node, ms] of selfTimes(profile)) {
    if (node.callFrame.functionName === IDLE) continue;
    cpuMs += ms;
    if (NOT_FUNCTIONS.has(node.callFrame.functionName)) continue;
    const key = keyOf(node.callFrame);
    functions.set(key, (functions.get(key) ?? 0) + ms);
  }
  return { cpuMs, functions };
}

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
