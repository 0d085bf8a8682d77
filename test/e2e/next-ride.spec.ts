import { expect, test } from "@playwright/test";
import { newPage, offerRideAt, requestSeat, signUpAndOnboard, unique } from "../support/e2e";

// Issue 35, item 3: the dashboard opens with the next ride, for the rider and the driver, and
// its actions work, with JavaScript and without.

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** 'Tue, Dec 1' for 2026-12-01, as the card shows it. */
function weekdayDate(date: string) {
  const [y, m, d] = date.split("-").map(Number);
  return `${WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]}, ${MONTHS[m - 1]} ${d}`;
}

test("the dashboard shows the next ride first: details, Message, calendar and Cancel this day", async ({
  page: driver,
  browser,
}, info) => {
  const driverName = unique("Dev Driver");
  const riderName = unique("Rina Rider");
  await signUpAndOnboard(driver, { fullName: driverName });
  const ride = await offerRideAt(driver, { from: "HSR Layout", to: "Koramangala", cost: "300" });

  const rider = await newPage(browser, info.project.name);
  await signUpAndOnboard(rider, { fullName: riderName, car: null });
  // Nothing booked yet: the empty state.
  await expect(rider.getByTestId("no-next-ride")).toContainText("No upcoming rides.");
  await requestSeat(rider, ride.id);

  await rider.goto("/dashboard");
  const card = rider.getByTestId("next-ride");
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("next-ride-when")).toContainText(weekdayDate(ride.date));
  await expect(card).toContainText("Pickup: HSR Layout");
  await expect(card).toContainText(`Driver: ${driverName}`);
  await expect(card.getByTestId("next-ride-price")).toHaveText("₹100.00 a seat");
  await expect(card).toContainText("Request pending");

  // The driver accepts on the ride page; their own dashboard shows the ride and its rider.
  await driver.goto(`/rides/${ride.id}`);
  await driver.getByRole("button", { name: "Accept" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Request accepted successfully!");
  await driver.goto("/dashboard");
  const drives = driver.getByTestId("next-ride");
  await expect(drives).toContainText(`Riders: ${riderName} (1 seat)`);
  await expect(drives).toContainText("You drive · 1 of 3 booked");
  await expect(drives.getByRole("link", { name: `Message ${riderName}` })).toBeVisible();

  // The rider: confirmed, and each action works.
  await rider.goto("/dashboard");
  await expect(card).toContainText("Seat confirmed");
  const downloading = rider.waitForEvent("download");
  await card.getByRole("link", { name: "Add to calendar (.ics)" }).click();
  expect((await downloading).suggestedFilename()).toBe(`loopride-ride-${ride.id}.ics`);
  await card.getByRole("link", { name: `Message ${driverName}` }).click();
  await expect(rider).toHaveURL(new RegExp(`/dashboard/messages\\?to=[a-z0-9]+&ride=${ride.id}$`));
  await rider.goto("/dashboard");
  await card.getByRole("button", { name: "Cancel this day" }).click();
  await expect(rider).toHaveURL(/\/dashboard$/);
  await expect(rider.getByTestId("toast")).toContainText("Request Cancelled");
  await expect(rider.getByTestId("next-ride")).toHaveCount(0);
  await expect(rider.getByTestId("no-next-ride")).toBeVisible();
});
