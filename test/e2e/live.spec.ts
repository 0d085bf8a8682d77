import { expect, test } from "@playwright/test";
import { signInAs, signUpAndOnboard } from "../support/e2e";

test("a driver's My Rides badge rises when someone requests a seat: live with JavaScript, on reload without", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const js = test.info().project.name === "js";
  // A fresh driver, so the badge starts at zero whatever other tests do.
  await signUpAndOnboard(page, { fullName: "Badge Driver", car: "electric" });
  await page.goto("/rides/create");
  await page.getByLabel("Pickup location").selectOption("Jayanagar");
  await page.getByLabel("Drop location").selectOption("UB City");
  const d = new Date(Date.now() + 5.5 * 3600_000 + 3 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("Date").fill(d);
  await page.getByLabel("Time").fill("09:15");
  await page.getByLabel("Available seats").selectOption("3");
  await page.getByLabel("Trip cost (₹, the whole trip)").fill("180");
  await page.getByRole("button", { name: "Create Ride", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/rides$/);
  await page.getByTestId("created-ride").first().getByRole("link", { name: "View ride" }).click();
  await expect(page).toHaveURL(/\/rides\/[a-z0-9]+$/);
  const rideId = new URL(page.url()).pathname.split("/").pop()!;

  await page.goto("/dashboard");
  const badge = page.getByTestId("badge-my-rides").first();
  await expect(badge).toHaveAttribute("data-count", "0");
  if (js) await expect(page.getByTestId("live-user")).toHaveAttribute("data-connected", "true");

  const riderContext = await browser.newContext({ javaScriptEnabled: js });
  const rider = await riderContext.newPage();
  await signInAs(rider, "vikram@demo.loopride.in");
  await rider.goto(`/rides/${rideId}/book`);
  await expect(rider.getByRole("heading", { level: 1 })).toBeVisible();
  await rider.getByLabel("Seats").selectOption("1");
  await rider.getByRole("button", { name: "Request Seats" }).click();
  await expect(rider).toHaveURL(/\/booking-confirmation\//);
  await riderContext.close();

  if (!js) await page.reload();
  await expect(page.getByTestId("badge-my-rides").first()).toHaveAttribute("data-count", "1", { timeout: 5_000 });
  await expect(page.getByTestId("badge-notifications")).toBeVisible();
});
