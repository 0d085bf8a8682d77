import { expect, test } from "@playwright/test";
import { signInAs } from "../support/e2e";

// ADR 0061, "Hydration on /dashboard": what a phone's main thread does once the dashboard has
// loaded. With JavaScript, React reports each commit to the devtools hook, and the hook counts
// the fibers that rendered in it. Route discovery's manifest patch, just after hydration,
// re-renders every route component; it re-rendered 380 of the page's 509 fibers (most of a
// second hydration, in one of Lighthouse's longest tasks). The page's body and the shell's
// sidebar are memoised on their loader data: 179 of 511 now, the links and forms (they read
// the router's state).

declare global {
  interface Window {
    __commits: { at: number; rendered: number }[];
  }
}

test("the dashboard hydrates once: a later commit re-renders a small part of it (JS); it renders whole without JS", async ({
  page,
}) => {
  const js = test.info().project.name === "js";
  await signInAs(page, "priya@demo.loopride.in");
  if (js)
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
  const manifest = js ? page.waitForResponse((r) => r.url().includes("/__manifest?")) : null;
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: /^Welcome back, / })).toBeVisible();
  // The CO2 figure is formatted without Intl (app/domain/numbers.ts), as en-IN shows it.
  await expect(page.getByTestId("savings-co2")).toHaveText(/^\d[\d,]*(\.\d)? kg$/);
  await expect(page.getByTestId("stat-total-rides")).toHaveText(/^\d+$/);
  if (!js) return;

  await manifest;
  const arrived = await page.evaluate(
    () =>
      (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).find((e) =>
        e.name.includes("/__manifest?"),
      )?.responseEnd ?? 0,
  );
  // The patch's commit comes after the manifest has arrived.
  await expect.poll(() => page.evaluate((t) => window.__commits.some((c) => c.at > t), arrived)).toBe(true);
  const commits = await page.evaluate(() => window.__commits);
  const [hydration, ...later] = commits;
  expect(hydration.rendered).toBeGreaterThan(300);
  for (const c of later) expect(c.rendered, JSON.stringify(commits)).toBeLessThan(hydration.rendered / 2);
});
