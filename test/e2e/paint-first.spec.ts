import { expect, test } from "@playwright/test";
import { jsEnabled, signInAs } from "../support/e2e";

// ADR 0061: the page is painted before any of its JavaScript is fetched; then it hydrates as
// before, and without JavaScript nothing of it is missed.
test("a page paints before it fetches its JavaScript, then hydrates and navigates in place", async ({
  page,
}, testInfo) => {
  await signInAs(page, "rahul@demo.loopride.in");
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  if (!jsEnabled(testInfo.project.name)) {
    // The boot script never runs: no module was fetched and the page is whole without it.
    expect(
      await page.evaluate(() => performance.getEntriesByType("resource").some((r) => r.name.endsWith(".js"))),
    ).toBe(false);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
    return;
  }
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const timing = await page.evaluate(() => ({
    paint: performance.getEntriesByName("first-paint")[0]?.startTime,
    scripts: performance
      .getEntriesByType("resource")
      .filter((r) => r.name.endsWith(".js"))
      .map((r) => r.startTime),
  }));
  expect(timing.paint).toBeGreaterThan(0);
  expect(timing.scripts.length).toBeGreaterThan(0);
  expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.paint as number);
  // The script element that started the modules is gone before hydration could meet it.
  await expect(page.locator("script[data-lr-boot]")).toHaveCount(0);
  // Hydrated for real: a link is followed by the router, without a new document.
  const link = page.locator('main a[href^="/rides/"]:visible').first();
  const href = await link.getAttribute("href");
  await link.click();
  await expect(page).toHaveURL((u) => u.pathname === href);
  expect(await page.evaluate(() => performance.getEntriesByType("navigation").length)).toBe(1);
  expect(await page.evaluate(() => location.pathname)).toBe(href);
});
