import { expect, test } from "@playwright/test";
import { signInAs } from "../support/e2e";
import { commitsAfterDiscovery, countCommits } from "./support/react-commits";

// ADR 0061, "Hydration on /dashboard": what a phone's main thread does once the dashboard has
// loaded, counted through React's devtools hook (support/react-commits.ts). Route discovery's
// manifest patch, just after hydration, re-renders every route component; it re-rendered 380 of
// the page's 509 fibers (most of a second hydration, in one of Lighthouse's longest tasks). The page's body and the shell's
// sidebar are memoised on their loader data: 179 of 511 now, the links and forms (they read
// the router's state).

test("the dashboard hydrates once: a later commit re-renders a small part of it (JS); it renders whole without JS", async ({
  page,
}) => {
  const js = test.info().project.name === "js";
  await signInAs(page, "priya@demo.loopride.in");
  const counting = js ? await countCommits(page) : null;
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: /^Welcome back, / })).toBeVisible();
  // The CO2 figure is formatted without Intl (app/domain/numbers.ts), as en-IN shows it.
  await expect(page.getByTestId("savings-co2")).toHaveText(/^\d[\d,]*(\.\d)? kg$/);
  await expect(page.getByTestId("stat-total-rides")).toHaveText(/^\d+$/);
  if (!js) return;

  const commits = await commitsAfterDiscovery(page, counting!);
  const [hydration, ...later] = commits;
  expect(hydration.rendered).toBeGreaterThan(300);
  for (const c of later) expect(c.rendered, JSON.stringify(commits)).toBeLessThan(hydration.rendered / 2);
});
