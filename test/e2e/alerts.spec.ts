import { expect, test } from "@playwright/test";
import { signedInPage, signUpAndOnboard, uniqueSlot } from "../support/e2e";

const plusMinutes = (time: string, minutes: number) => {
  const m = Number(time.slice(0, 2)) * 60 + Number(time.slice(3)) + minutes;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
};

// Issue 14: a rider saves a distance search; a driver then publishes a matching ride; the
// rider finds the alert in the notification panel and its link opens the ride.
test("a saved search gets an alert when a matching ride is published, with a link to the ride", async ({ browser }) => {
  const slot = uniqueSlot();
  const rider = await browser.newPage();
  await signUpAndOnboard(rider, { fullName: "Nisha Alert" });
  await rider.goto("/rides");
  const search = rider.getByRole("search", { name: "Find rides near you" });
  await search.getByLabel("From (your locality)").fill("Yelahanka");
  await search.getByLabel("To", { exact: true }).fill("Electronic City Phase 1");
  await search.getByLabel("Day", { exact: true }).fill(slot.date);
  await search.getByLabel("Around", { exact: true }).fill(slot.time);
  await search.getByRole("button", { name: "Find rides" }).click();
  await expect(rider).toHaveURL(/from=Yelahanka/);

  // Save it, for every day of the week (the slot may be a weekend).
  const save = rider.getByRole("form", { name: "Save this search" });
  await save.getByLabel("Saturday").check();
  await save.getByLabel("Sunday").check();
  await save.getByRole("button", { name: "Save this search" }).click();
  await expect(rider.getByTestId("toast")).toContainText("Search saved");
  const saved = rider.getByTestId("saved-search").filter({ hasText: "Yelahanka → Electronic City Phase 1" });
  await expect(saved).toHaveCount(1);
  await expect(saved).toContainText("Every day around");

  // A driver publishes a ride from Yelahanka to Electronic City 5 minutes later.
  const driver = await signedInPage(browser, "arjun@demo.loopride.in");
  await driver.goto("/rides/create");
  await driver.getByLabel("Pickup location").fill("Yelahanka");
  await driver.getByLabel("Drop location").fill("Electronic City Phase 1");
  await driver.getByLabel("Date").fill(slot.date);
  await driver.getByLabel("Time").fill(plusMinutes(slot.time, 5));
  await driver.getByLabel("Available seats").selectOption("3");
  await driver.getByLabel("Trip cost (₹, the whole trip)").fill("400");
  await driver.getByRole("button", { name: "Create Ride", exact: true }).click();
  await expect(driver).toHaveURL(/\/dashboard\/rides$/);
  await expect(driver.getByTestId("toast")).toContainText("Ride created successfully!");

  // The rider's notification panel has the alert; its link opens the ride.
  await rider.goto("/dashboard?panel=notifications#notifications");
  const alert = rider
    .locator("#notifications")
    .getByTestId("notification")
    .filter({ hasText: "New ride for your saved search" });
  await expect(alert).toHaveCount(1);
  await expect(alert).toContainText("A ride from Yelahanka to Electronic City Phase 1");
  await alert.getByRole("link", { name: "New ride for your saved search" }).click();
  await expect(rider).toHaveURL(/\/rides\/[A-Za-z0-9_-]+$/);
  await expect(rider.getByRole("main")).toContainText("Yelahanka");
  await expect(rider.getByRole("main")).toContainText("Arjun");

  // Paused, it lists as paused (a plain form post, also without JavaScript).
  await rider.goto("/rides#saved-searches");
  await rider.getByRole("button", { name: "Pause alerts for Yelahanka to Electronic City Phase 1" }).click();
  await expect(rider.getByTestId("toast")).toContainText("Alerts paused for this search");
  await expect(rider.getByTestId("saved-search").filter({ hasText: "Yelahanka" })).toContainText("Paused");
  await driver.context().close();
  await rider.context().close();
});
