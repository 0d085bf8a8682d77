import { expect, test, type Page } from "@playwright/test";
import { offerRide, requestSeat, signedInPage } from "../support/e2e";

// Rides to complete depart in about 20 minutes (offerRide({ soon: true })): completion opens 30 minutes before departure.

async function acceptAll(driver: Page, rideId: string, n: number) {
  for (let i = 0; i < n; i++) {
    await driver.goto(`/rides/${rideId}`);
    await driver.getByRole("button", { name: "Accept" }).first().click();
    await expect(driver.getByTestId("toast")).toContainText("Request accepted successfully!");
  }
}

async function completeAsDriver(driver: Page, rideId: string) {
  await driver.goto(`/rides/${rideId}/completion`);
  await expect(driver.getByTestId("ride-status")).toHaveText("Active");
  await expect(driver.getByText("Costs and payments are calculated automatically")).toBeVisible();
  await driver.getByRole("button", { name: "Complete Ride" }).click();
  await expect(driver.getByText("Ride Completed!")).toBeVisible();
  await expect(driver.getByTestId("ride-status")).toHaveText("Completed", { timeout: 15_000 });
}

// The JS and no-JS runs go in parallel on one database: each gets its own people (demo
// data), so one run's live notifications never land in the other's pages.
const CAST = {
  js: {
    split: {
      driver: ["priya@demo.loopride.in", "Priya Sharma"],
      a: ["rahul@demo.loopride.in", "Rahul Verma"],
      b: ["kavya@demo.loopride.in", "Kavya Nair"],
      community: "HSR Layout Sector 2 Residents",
      from: "HSR Layout",
      to: "Koramangala",
    },
    standard: {
      driver: "arjun@demo.loopride.in",
      rider: "sneha@demo.loopride.in",
      from: "Whitefield ITPL",
      to: "Indiranagar",
    },
  },
  "no-js": {
    split: {
      driver: ["ananya@demo.loopride.in", "Ananya Iyer"],
      a: ["irfan@demo.loopride.in", "Mohammed Irfan"],
      b: ["rahul@demo.loopride.in", "Rahul Verma"],
      community: "Manyata Tech Park Carpool",
      from: "Indiranagar",
      to: "Manyata Tech Park",
    },
    standard: { driver: "irfan@demo.loopride.in", rider: "vikram@demo.loopride.in", from: "Hebbal", to: "Yelahanka" },
  },
} as const;
const cast = () => CAST[test.info().project.name as "js" | "no-js"];

test("a ride with two riders from the driver's community splits the fuel cost equally; paid, received and rated", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const c = cast().split;
  const driver = await signedInPage(browser, c.driver[0]);
  const rideId = await offerRide(driver, { community: c.community, from: c.from, to: c.to, cost: "301", soon: true });
  const rahul = await signedInPage(browser, c.a[0]);
  const kavya = await signedInPage(browser, c.b[0]);
  await requestSeat(rahul, rideId);
  await requestSeat(kavya, rideId);
  await acceptAll(driver, rideId, 2);

  // A rider sees the wait message before completion.
  await rahul.goto(`/rides/${rideId}/completion`);
  await expect(rahul.getByText("Only the driver can complete this ride.")).toBeVisible();

  await completeAsDriver(driver, rideId);
  await expect(driver.getByTestId("split-badge")).toHaveText("Fuel Cost Split Applied");
  await expect(driver.getByText(c.community).first()).toBeVisible();
  // ₹301 among 3 people: riders pay ₹100.33 each, the driver covers the remaining paise.
  await expect(driver.getByTestId("participants")).toContainText("₹100.33");
  await expect(driver.getByTestId("participants")).toContainText("₹100.34");
  await expect(driver.getByTestId("participants")).toContainText("Equal share");
  await expect(driver.getByTestId("participants").getByText("Same community")).toHaveCount(2);

  // Rahul pays in cash; Priya confirms.
  await rahul.goto(`/rides/${rideId}/completion`);
  await rahul.getByLabel("Paid by").selectOption("cash");
  await rahul.getByRole("button", { name: "Paid", exact: true }).click();
  await expect(rahul.getByTestId("toast")).toContainText("Marked as paid");
  await driver.goto(`/rides/${rideId}/completion`);
  await driver.getByRole("button", { name: `Received from ${c.a[1]}` }).click();
  await expect(driver.getByTestId("toast")).toContainText("Payment received");
  await expect(driver.getByTestId("participant").filter({ hasText: c.a[1] }).getByTestId("payment-status")).toHaveText(
    "Received (cash)",
  );

  // They rate each other; the driver's rating shows on her next ride.
  await rahul.goto(`/rides/${rideId}/completion`);
  await rahul.getByLabel("Stars").first().selectOption("5");
  await rahul.getByRole("button", { name: `Rate ${c.driver[1]}` }).click();
  await expect(rahul.getByTestId("toast")).toContainText("Thanks for your rating!");
  await driver.getByRole("button", { name: `Rate ${c.a[1]}` }).click();
  await expect(driver.getByTestId("toast")).toContainText("Thanks for your rating!");
  const next = await offerRide(driver, { from: c.to, to: "MG Road", cost: "120" });
  await rahul.goto(`/rides/${next}`);
  await expect(rahul.getByTestId("driver-rating")).toHaveText(/^\d\.\d ★ \(\d+\)$/);

  // Process Payments, then a printable receipt.
  await driver.goto(`/rides/${rideId}/completion`);
  await driver.getByRole("button", { name: /Process Payments|Remind riders again/ }).click();
  await expect(driver).toHaveURL(/\/dashboard\/rides$/);
  await expect(driver.getByTestId("toast")).toContainText("Payments Processed");
  await driver.goto(`/rides/${rideId}/receipt`);
  await expect(driver.getByRole("heading", { name: "Ride receipt" })).toBeVisible();
  await expect(driver.locator("table")).toContainText(c.b[1]);
});

test("a ride with a rider outside the community is priced per seat", async ({ browser }) => {
  test.setTimeout(120_000);
  const c = cast().standard;
  const driver = await signedInPage(browser, c.driver);
  const rideId = await offerRide(driver, { from: c.from, to: c.to, cost: "450", soon: true });
  const sneha = await signedInPage(browser, c.rider);
  await requestSeat(sneha, rideId);
  await acceptAll(driver, rideId, 1);
  await completeAsDriver(driver, rideId);
  await expect(driver.getByTestId("split-badge")).toHaveText("Cost Per Seat");
  await expect(driver.getByTestId("participants")).toContainText("No charge");
  await expect(driver.getByTestId("participants")).toContainText("Free");
  await expect(driver.getByTestId("participants")).toContainText("₹150.00");
  await expect(driver.getByText("join the same community")).toBeAttached();

  // On the completed ride the rider's seat can no longer be cancelled, and the page says why.
  await sneha.goto(`/rides/${rideId}`);
  await expect(sneha.getByTestId("requests-closed")).toHaveText(
    "This ride has been completed: its requests can no longer be changed.",
  );
  await expect(sneha.getByRole("button", { name: "Cancel my seat" })).toHaveCount(0);
});

test("a ride departing in weeks cannot be completed yet: the button is disabled and says why", async ({ browser }) => {
  const c = cast().standard;
  const driver = await signedInPage(browser, c.driver);
  const rideId = await offerRide(driver, { from: c.to, to: c.from, cost: "200" });
  const sneha = await signedInPage(browser, c.rider);
  await requestSeat(sneha, rideId);
  await acceptAll(driver, rideId, 1);
  await driver.goto(`/rides/${rideId}/completion`);
  await expect(driver.getByTestId("complete-blocked")).toHaveText(
    "A ride can be completed from 30 minutes before its departure time.",
  );
  await expect(driver.getByRole("button", { name: "Complete Ride" })).toBeDisabled();
});
