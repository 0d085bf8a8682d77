import { expect, test } from "@playwright/test";
import { send, signInAs } from "../support/e2e";

test("dashboard sidebar: a slide-over on mobile and collapsible on desktop, without JavaScript too", async ({
  page,
}) => {
  await signInAs(page, "kavya@demo.loopride.in");
  await page.goto("/dashboard");
  const sidebar = page.getByRole("navigation", { name: "Dashboard" }).first();
  await expect(sidebar).toBeVisible();
  await expect(page.getByText("kavya@demo.loopride.in").first()).toBeVisible();
  await page.getByText("Toggle sidebar").click();
  await expect(page.locator("aside")).toBeHidden();
  await page.getByText("Toggle sidebar").click();
  await expect(page.locator("aside")).toBeVisible();

  await page.setViewportSize({ width: 390, height: 800 });
  await expect(page.locator("aside")).toBeHidden();
  const slideOver = page.locator("#mobile-sidebar");
  await expect(slideOver).toBeHidden();
  await page.getByRole("link", { name: "Menu" }).click();
  await expect(slideOver).toBeVisible();
  await expect(slideOver.getByRole("link", { name: "Communities" })).toBeVisible();
  await expect(slideOver.getByRole("button", { name: "Sign Out" })).toBeVisible();
  await slideOver.getByRole("link", { name: "Close", exact: true }).click();
  await expect(slideOver).toBeHidden();
});

test("the sidebar's My Rides badge shows the driver's pending requests", async ({ page }) => {
  // Priya's demo ride has a pending request from Kavya; more may be added by other tests.
  await signInAs(page, "priya@demo.loopride.in");
  await page.goto("/dashboard");
  const badge = page.getByTestId("badge-my-rides").first();
  await expect(badge).toBeVisible();
  expect(Number(await badge.getAttribute("data-count"))).toBeGreaterThanOrEqual(1);
});

test("the hashed stylesheet and scripts are cached for a year, the page itself is not", async ({ page }) => {
  // public/_headers: a file under /assets/ is named by its content hash, so a browser keeps it
  // without revalidating; before, every page load asked again for each of them.
  const assets: Array<{ path: string; cacheControl: string }> = [];
  page.on("response", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith("/assets/")) assets.push({ path, cacheControl: r.headers()["cache-control"] ?? "" });
  });
  const res = await page.goto("/pricing", { waitUntil: "load" });
  expect(res?.headers()["cache-control"] ?? "").not.toContain("immutable");
  expect(assets.some((a) => a.path.endsWith(".css"))).toBe(true);
  for (const a of assets) expect(a.cacheControl, a.path).toBe("public, max-age=31536000, immutable");
  const favicon = await send(page.request, "/favicon.svg");
  expect(favicon.headers()["cache-control"]).not.toContain("immutable");
});
