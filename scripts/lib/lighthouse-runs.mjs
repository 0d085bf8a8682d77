// Which of `npm run lighthouse`'s runs of a page are judged (scripts/lighthouse.mjs, ADR 0061),
// kept apart from the script so that test/unit/lighthouse-runs.test.ts checks it without a
// browser.

/**
 * Chromium's switches for the measured browser (chrome-launcher adds its defaults).
 *
 * `--run-all-compositor-stages-before-draw` (the switch of headless Chromium's deterministic
 * rendering): the compositor draws a frame once the main thread, raster and activation are all
 * done for it. Without it, on this busy host, headless Chromium often issued the page's first
 * main frame only about 1.2 s after the navigation and drew it a second later again, with the
 * page laid out, its stylesheet applied and the main thread idle since about 0.4 s (below). In
 * six interleaved runs of the ride page at 10:01 UTC (load average 13-14), without it the first
 * paint was observed at 1.29-2.39 s, after the load event every time; with it at 0.59-0.79 s,
 * before the load event every time. A phone draws its first frame when those stages are done
 * too, so the page is not measured more kindly than it loads.
 */
export const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--run-all-compositor-stages-before-draw",
];

/**
 * A run is not judged when its page stood loaded, yet unshown, for this long (ms): the observed
 * first contentful paint that long after the load event.
 *
 * LoopRide's pages are server-rendered: the first paint needs the HTML and the stylesheet, never
 * the scripts, and the load event waits for every script. Yet headless Chromium on this shared
 * 2-core host often starts the page's frames only 1.2 s after the navigation and presents the
 * painted frame a second later still, with the page laid out since about 0.4 s and the main
 * thread idle (the same whole-second gaps as GoogleChrome/lighthouse issue 17148). Lantern
 * counts every request that finished before the observed paint, so such a run estimates LCP at
 * 2.5-3.2 s from all the page's modules, where a run of the same build that paints on time
 * estimates 1.0-1.3 s. Those runs measure the host's frame scheduling, not the page.
 */
export const WITHHELD_PAINT_MS = 500;

/** How long the observed first contentful paint came after the load event (ms, 0 if before). */
export function paintAfterLoad(lhr) {
  const m = lhr.audits?.metrics?.details?.items?.[0];
  if (m?.observedFirstContentfulPaint == null || m.observedLoad == null) return null;
  return Math.max(0, Math.round(m.observedFirstContentfulPaint - m.observedLoad));
}

/** Whether a run's paint was withheld by the host (above). */
export function paintWithheld(lhr) {
  return (paintAfterLoad(lhr) ?? 0) >= WITHHELD_PAINT_MS;
}

/**
 * Whether to measure a page once more: fewer than `runs` judged runs so far, and at most
 * `runs` extra attempts in all.
 */
export function measureAgain(lhrs, runs) {
  const judged = lhrs.filter((l) => !paintWithheld(l)).length;
  return judged < runs && lhrs.length < 2 * runs;
}

/**
 * The runs the median is taken from. A page that paints after its load event in most attempts
 * does so by itself (content shown only by its scripts, say), not by the host: then every
 * attempt is judged, as measured, and `allWithheld` says why it fails.
 */
export function judgedRuns(lhrs) {
  const judged = lhrs.filter((l) => !paintWithheld(l));
  if (judged.length > 0 && judged.length >= lhrs.length - judged.length)
    return { judged, withheld: lhrs.length - judged.length, mostWithheld: false };
  return { judged: lhrs, withheld: lhrs.length - judged.length, mostWithheld: true };
}
