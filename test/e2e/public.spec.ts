import { expect, test } from "@playwright/test";

test("landing page shows the hero, features, steps and plans in rupees", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  for (const text of [
    "Community based",
    "Workplace integration",
    "Safe and secure",
    "Sign Up",
    "Join Communities",
    "Create or Join Rides",
    "Share & Save",
  ]) {
    await expect(page.getByRole("heading", { name: text, exact: true })).toBeVisible();
  }
  await expect(page.getByText("₹49", { exact: true })).toBeVisible();
  await expect(page.locator("body")).not.toContainText("$");
});

test("newsletter stores an address, once, and explains a bad one", async ({ page }) => {
  const email = `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  await page.goto("/");
  const form = page.locator("#newsletter");
  await form.getByLabel("E-mail address").fill("not-an-email");
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(form.getByText("Please enter a valid e-mail address")).toBeVisible();
  await form.getByLabel("E-mail address").fill(email);
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByTestId("toast")).toContainText("Thanks for subscribing!");
  await page.goto("/");
  await page.locator("#newsletter").getByLabel("E-mail address").fill(email);
  await page.locator("#newsletter").getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByTestId("toast")).toContainText("Thanks for subscribing!");
});

test("unknown paths show the 404 page with Go Back and Return Home", async ({ page }) => {
  const res = await page.goto("/this/does/not/exist");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go Back" })).toBeVisible();
  await page.getByRole("link", { name: "Return Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the mobile menu opens without JavaScript", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/");
  const mobileNav = page.getByRole("navigation", { name: "Mobile" });
  await expect(mobileNav).toBeHidden();
  await page.getByRole("link", { name: "Menu" }).click();
  await expect(mobileNav).toBeVisible();
  await mobileNav.getByRole("link", { name: "Pricing" }).click();
  await expect(page).toHaveURL(/\/pricing$/);
});

// ADR 0061, "A landing page without JavaScript": on a phone, the visitor's first page is its
// HTML and stylesheet only; its links and the newsletter post work as they are.
test("the landing page fetches no script, with JavaScript on as off", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
  });
  await page.goto("/", { waitUntil: "load" });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Share the ride. Share the cost.");
  expect(scripts).toEqual([]);
  // The next page is a full page load that fetches its modules as before (Chromium fetches
  // module preloads with JavaScript off too): what the count above would have seen on /.
  await page.getByRole("link", { name: "Get started for free" }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect.poll(() => scripts.length).toBeGreaterThan(5);
});
