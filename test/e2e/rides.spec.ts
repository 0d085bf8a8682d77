import { expect, test, type Page } from "@playwright/test";
import { signedInPage, uniqueSlot } from "../support/e2e";

async function offerRide(
  page: Page,
  slot: ReturnType<typeof uniqueSlot>,
  { from = "Koramangala", to = "Whitefield ITPL", seats = "3" } = {},
) {
  await page.goto("/rides/create");
  await expect(page.getByRole("heading", { name: "Create a New Ride" })).toBeVisible();
  await page.getByLabel("Pickup location").fill(from);
  await page.getByLabel("Drop location").fill(to);
  // The suggestion: live with JavaScript, by a "Suggest cost" round trip without it.
  await page.getByRole("button", { name: "Suggest cost" }).click();
  await expect(page.getByTestId("suggestion-explanation")).toContainText("km straight line × 1.4 road factor");
  const suggested = (await page.getByTestId("suggested-cost").textContent())!.replace(/[₹,]/g, "");
  await expect(page.getByLabel("Trip cost (₹, the whole trip)")).toHaveValue(suggested);
  await page.getByLabel("Date").fill(slot.date);
  await page.getByLabel("Time").fill(slot.time);
  await page.getByLabel("Available seats").selectOption(seats);
  await page.getByLabel("Notes (optional)").fill("Leaving from the Forum Mall gate.");
  await page.getByRole("button", { name: "Create Ride", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/rides$/);
  await expect(page.getByTestId("toast")).toContainText("Ride created successfully!");
  const card = page
    .getByTestId("created-ride")
    .filter({ hasText: slot.label })
    .filter({ hasText: from })
    .filter({ hasText: to })
    .first();
  await expect(card).toBeVisible();
  await card.getByRole("link", { name: "View ride" }).click();
  await expect(page).toHaveURL(/\/rides\/[a-z0-9]+$/);
  return new URL(page.url()).pathname.split("/").pop()!;
}

test("Suggest cost on an empty form with a drop the browser does not know (Bellandur): the server suggests and fills the cost", async ({
  browser,
}) => {
  const driver = await signedInPage(browser, "priya@demo.loopride.in");
  await driver.goto("/rides/create");
  await driver.getByLabel("Pickup location").fill("HSR Layout");
  await driver.getByLabel("Drop location").fill("Bellandur");
  // Nothing else filled in: the button must still reach the server (with JavaScript the form's
  // own validation stopped it with "Please enter the trip cost").
  await driver.getByRole("button", { name: "Suggest cost" }).click();
  await expect(driver.getByTestId("suggestion-explanation")).toContainText("km straight line × 1.4 road factor");
  const suggested = (await driver.getByTestId("suggested-cost").textContent())!.replace(/[₹,]/g, "");
  await expect(driver.getByLabel("Trip cost (₹, the whole trip)")).toHaveValue(suggested);
  // Asking for a cost is not submitting the ride: no field is marked wrong.
  for (const message of [
    "Please enter the trip cost",
    "Please select a date",
    "Please select time",
    "Please select number of seats",
  ]) {
    await expect(driver.getByText(message)).toHaveCount(0);
  }
  await expect(driver.getByLabel("Pickup location")).toHaveValue("HSR Layout");
  await expect(driver.getByLabel("Drop location")).toHaveValue("Bellandur");
});

test("offer a ride, find it with a filter, book 2 seats, driver accepts; a request that no longer fits cannot be accepted", async ({
  browser,
}) => {
  const slot = uniqueSlot();
  const driver = await signedInPage(browser, "priya@demo.loopride.in");
  const rideId = await offerRide(driver, slot);

  // Kavya finds it with the date filter and books 2 seats.
  const rider = await signedInPage(browser, "kavya@demo.loopride.in");
  await rider.goto("/rides");
  await rider.getByText("Filters", { exact: true }).click();
  await rider.getByLabel("Date").fill(slot.date);
  await rider.getByLabel("Community rides only").uncheck();
  await rider.getByRole("button", { name: "Apply filters" }).click();
  await expect(rider).toHaveURL(new RegExp(`date=${slot.date}`));
  const card = rider.getByTestId("ride-card").filter({ has: rider.locator(`a[href="/rides/${rideId}"]`) });
  await expect(card).toBeVisible();
  await expect(card).toContainText("Priya Sharma");
  await expect(card).toContainText("3 seats left");
  await card.getByRole("link", { name: "Book Now" }).click();
  await expect(rider).toHaveURL(new RegExp(`/rides/${rideId}/book$`));
  await rider.getByLabel("Seats").selectOption("2");
  await rider.getByLabel("Message to the driver (optional)").fill("Two of us, near Sony signal.");
  await rider.getByRole("button", { name: "Request Seats" }).click();
  await expect(rider).toHaveURL(/\/booking-confirmation\/[a-z0-9]+$/);
  await expect(rider.getByTestId("toast")).toContainText("Ride request submitted!");
  await expect(rider.getByTestId("booking-subtitle")).toHaveText("Waiting for driver confirmation...");
  await expect(rider.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "25");
  await expect(rider.getByText("Two of us, near Sony signal.")).toBeVisible();

  // Rahul asks for 2 seats too, before Kavya is accepted.
  const other = await signedInPage(browser, "rahul@demo.loopride.in");
  await other.goto(`/rides/${rideId}/book`);
  await other.getByLabel("Seats").selectOption("2");
  await other.getByRole("button", { name: "Request Seats" }).click();
  await expect(other).toHaveURL(/\/booking-confirmation\//);

  // The driver accepts Kavya in Manage Bookings.
  await driver.goto("/dashboard/rides?tab=manage&status=pending");
  const kavya = driver.getByTestId("request-card").filter({ hasText: "Kavya Nair" }).filter({ hasText: slot.label });
  await expect(kavya).toContainText("Two of us, near Sony signal.");
  await kavya.getByRole("button", { name: "Accept" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Request accepted successfully!");

  // Kavya's confirmation shows it: polled with JavaScript, by Refresh without.
  if (test.info().project.name === "no-js") await rider.reload();
  await expect(rider.getByTestId("booking-subtitle")).toHaveText("Your ride is confirmed!");
  await expect(rider.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");

  // Rahul's 2 seats no longer fit in the 1 left.
  await driver.goto("/dashboard/rides?tab=manage&status=pending");
  const rahul = driver
    .locator(`[data-testid="request-card"][data-ride-id="${rideId}"]`)
    .filter({ hasText: "Rahul Verma" });
  // Issue 38, defect 4: Accept is shown disabled, with the seat rule's reason, not offered.
  await expect(rahul.getByRole("button", { name: "Accept" })).toBeDisabled();
  await expect(rahul).toContainText("Can't accept: Only 1 seat is available for this ride.");
  await expect(rahul.getByTestId("status-badge")).toHaveText("Pending");
  await driver.goto(`/rides/${rideId}`);
  await expect(driver.getByText("2 of 3 booked")).toBeVisible();
});

test("a rider cancels a pending request", async ({ browser }) => {
  const slot = uniqueSlot();
  const driver = await signedInPage(browser, "arjun@demo.loopride.in");
  const rideId = await offerRide(driver, slot, { from: "Marathahalli", to: "MG Road", seats: "2" });
  const rider = await signedInPage(browser, "sneha@demo.loopride.in");
  await rider.goto(`/rides/${rideId}`);
  await rider.getByLabel("Seats").selectOption("1");
  await rider.getByRole("button", { name: "Request to Join" }).click();
  await expect(rider).toHaveURL(/\/booking-confirmation\//);
  await rider.goto(`/rides/${rideId}`);
  await expect(rider.getByRole("heading", { name: "Request Pending" })).toBeVisible();
  await rider.getByRole("button", { name: "Cancel" }).click();
  await expect(rider.getByTestId("toast")).toContainText("Request Cancelled");
  await expect(rider.getByRole("button", { name: "Request to Join" })).toBeVisible();
  await rider.goto("/dashboard/rides?tab=booked");
  const booked = rider.getByTestId("booked-ride").filter({ hasText: slot.label });
  await expect(booked.getByTestId("status-badge").first()).toHaveText("Cancelled");
});
