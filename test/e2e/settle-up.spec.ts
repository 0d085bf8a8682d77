import { expect, test, type Page } from "@playwright/test";
import { newPage, offerRide, requestSeat, signUpAndOnboard, uniqueEmail } from "../support/e2e";

// Issue 35, item 6: a regular rider's week with one driver is settled with one payment.
// Two rides this week (each completed once it is about to leave), one statement, one UPI
// payment that settles both, one confirmation by the driver. JS on and off.

async function acceptAndComplete(driver: Page, rideId: string) {
  await driver.goto(`/rides/${rideId}`);
  await driver.getByRole("button", { name: "Accept" }).first().click();
  await expect(driver.getByTestId("toast")).toContainText("Request accepted successfully!");
  await driver.goto(`/rides/${rideId}/completion`);
  await driver.getByRole("button", { name: "Complete Ride" }).click();
  await expect(driver.getByTestId("ride-status")).toHaveText("Completed", { timeout: 15_000 });
}

test("a week's statement settles with one payment", async ({ browser }) => {
  test.setTimeout(150_000);
  const project = test.info().project.name;
  const driver = await newPage(browser, project);
  const rider = await newPage(browser, project);
  await signUpAndOnboard(driver, { fullName: "Meera Weekday", email: uniqueEmail("driver") });
  await signUpAndOnboard(rider, { fullName: "Kiran Regular", email: uniqueEmail("rider"), car: null });
  await driver.goto("/dashboard/profile");
  await driver.getByLabel("UPI ID (for receiving ride payments)").fill("meera@okaxis");
  await driver.getByRole("button", { name: "Save Changes" }).click();
  await expect(driver.getByTestId("toast")).toBeVisible();

  // Two rides with the same driver this week, ₹150 for 3 seats: ₹50 a seat each.
  for (const from of ["HSR Layout", "Koramangala"]) {
    const rideId = await offerRide(driver, { from, to: "Manyata Tech Park", cost: "150", soon: true });
    await requestSeat(rider, rideId);
    await acceptAndComplete(driver, rideId);
  }

  // The rider finds the week from the dashboard and pays it once.
  await rider.goto("/dashboard");
  await rider.getByRole("link", { name: "Weekly settle-up" }).click();
  await expect(rider).toHaveURL(/\/dashboard\/settle-up$/);
  await expect(rider.getByText("You owe Meera Weekday ₹100.00 for 2 rides.")).toBeVisible();
  await rider.getByRole("link", { name: /View statement/ }).click();
  await expect(rider.getByTestId("statement-line")).toHaveCount(2);
  await expect(rider.getByTestId("week-unpaid")).toHaveText("₹100.00");
  await expect(rider.getByRole("img", { name: "UPI payment QR code" })).toBeVisible();
  const upi = rider.getByRole("link", { name: "Pay ₹100.00 with a UPI app" });
  await expect(upi).toHaveAttribute("href", /^upi:\/\/pay\?pa=meera%40okaxis&.*am=100\.00/);
  await rider.getByRole("button", { name: "Mark the week paid" }).click();
  await expect(rider.getByTestId("toast")).toContainText("Week marked as paid");
  await expect(rider.getByTestId("line-status")).toHaveText([
    "Paid, awaiting confirmation",
    "Paid, awaiting confirmation",
  ]);
  await expect(rider.getByRole("button", { name: "Mark the week paid" })).toHaveCount(0);
  const statement = rider.url();

  // The driver sees one payment for the week and confirms it once.
  await driver.goto(statement);
  await expect(driver.getByTestId("settlement")).toHaveCount(1);
  await expect(driver.getByTestId("settlement")).toContainText("₹100.00 for 2 rides by UPI");
  await driver.getByRole("button", { name: "Received" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Payment received");
  await expect(driver.getByTestId("line-status")).toHaveText(["Paid", "Paid"]);
  await expect(driver.getByTestId("week-unpaid")).toHaveText("₹0.00");
  // Settled: the week leaves the rider's list.
  await rider.goto("/dashboard/settle-up");
  await expect(rider.getByTestId("settle-up-empty")).toBeVisible();
  await driver.context().close();
  await rider.context().close();
});
