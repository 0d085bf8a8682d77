import { expect, type Page } from "@playwright/test";

// What a phone's main thread renders once a page has hydrated (ADR 0061): React reports each
// commit to the devtools hook, and this hook counts the fibers that rendered in it. Route
// discovery's manifest patch, just after hydration, re-renders every route component; a page's
// body memoised on its loader data is then skipped.

declare global {
  interface Window {
    __commits: { at: number; rendered: number }[];
  }
}

/**
 * Counts the fibers rendered in each React commit of the next page load (await it before goto).
 * The manifest's response is wrapped, so that awaiting this does not wait for it.
 */
export async function countCommits(page: Page) {
  await page.addInitScript(() => {
    window.__commits = [];
    // The commit in which each fiber was last seen, with its props and hook state then. A fiber
    // and its alternate take turns as the current one: the later record of the two counts.
    const seen = new WeakMap<object, [number, unknown, unknown]>();
    let commit = 0;
    type Fiber = { child: Fiber | null; sibling: Fiber | null; alternate: Fiber | null } & Record<string, unknown>;
    const rendered = (root: Fiber) => {
      commit++;
      let n = 0;
      const walk = (first: Fiber | null) => {
        for (let f = first; f; f = f.sibling) {
          const a = seen.get(f);
          const b = f.alternate ? seen.get(f.alternate) : undefined;
          const last = a && b ? (a[0] > b[0] ? a : b) : (a ?? b);
          if (!last || last[1] !== f.memoizedProps || last[2] !== f.memoizedState) n++;
          seen.set(f, [commit, f.memoizedProps, f.memoizedState]);
          walk(f.child);
        }
      };
      walk(root.child);
      return n;
    };
    const noop = () => {};
    Object.assign(window, {
      __REACT_DEVTOOLS_GLOBAL_HOOK__: {
        supportsFiber: true,
        renderers: new Map(),
        inject: () => 1,
        onCommitFiberRoot: (_: number, root: { current: Fiber }) =>
          window.__commits.push({ at: performance.now(), rendered: rendered(root.current) }),
        onCommitFiberUnmount: noop,
        onPostCommitFiberRoot: noop,
        onScheduleFiberRoot: noop,
        checkDCE: noop,
      },
    });
  });
  return { manifest: page.waitForResponse((r) => r.url().includes("/__manifest?")) };
}

/** The commits of the page, once the one after route discovery's manifest has come. */
export async function commitsAfterDiscovery(page: Page, counting: Awaited<ReturnType<typeof countCommits>>) {
  await counting.manifest;
  const arrived = await page.evaluate(
    () =>
      (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).find((e) =>
        e.name.includes("/__manifest?"),
      )?.responseEnd ?? 0,
  );
  // The patch's commit comes after the manifest has arrived.
  await expect.poll(() => page.evaluate((t) => window.__commits.some((c) => c.at > t), arrived)).toBe(true);
  return page.evaluate(() => window.__commits);
}
