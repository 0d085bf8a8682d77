import { expect, test } from "@playwright/test";
import { offerRide, signInAs, signUpAndOnboard } from "../support/e2e";

test("a driver's My Rides badge rises when someone requests a seat: live with JavaScript, on reload without", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const js = test.info().project.name === "js";
  // A fresh driver, so the badge starts at zero whatever other tests do.
  await signUpAndOnboard(page, { fullName: "Badge Driver", car: "electric" });
  const rideId = await offerRide(page, { from: "Jayanagar", to: "UB City", cost: "180" });

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
