import { expect, test } from "@playwright/test";
import { signInAs } from "../support/e2e";
import { commitsAfterDiscovery, countCommits } from "./support/react-commits";

// ADR 0061, "Discover hydrates once": the Discover list is the largest page a commuter opens
// first (about 1,300 nodes on the demo city). Its body is memoised on the loader data and the
// address, so route discovery's manifest patch after hydration no longer renders the list a
// second time in one long task: with JavaScript, that commit renders less than half of what
// the hydration did. Without JavaScript the page is whole from the server.

test("Discover hydrates once: a later commit re-renders a small part of it (JS); it renders whole without JS", async ({
  page,
}) => {
  const js = test.info().project.name === "js";
  await signInAs(page, "priya@demo.loopride.in");
  const counting = js ? await countCommits(page) : null;
  await page.goto("/rides");
  await expect(page.getByRole("heading", { level: 1, name: "Discover Rides" })).toBeVisible();
  await expect(page.getByTestId("rides-found")).toHaveText(/^\d+\+? rides? found$/);
  const cards = page.getByRole("main").getByRole("listitem");
  expect(await cards.count()).toBeGreaterThan(3);
  if (!js) return;

  const commits = await commitsAfterDiscovery(page, counting!);
  const [hydration, ...later] = commits;
  expect(hydration.rendered).toBeGreaterThan(300);
  for (const c of later) expect(c.rendered, JSON.stringify(commits)).toBeLessThan(hydration.rendered / 2);
});
