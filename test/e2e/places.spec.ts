import { expect, test } from "@playwright/test";
import { signedInPage, uniqueSlot } from "../support/e2e";

const plusMinutes = (time: string, minutes: number) => {
  const m = Number(time.slice(0, 2)) * 60 + Number(time.slice(3)) + minutes;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
};

test("a driver offers a ride from a typed locality; a rider 1.2 km away, 20 minutes off, finds it with the distances shown", async ({
  browser,
}) => {
  const slot = uniqueSlot();
  const driver = await signedInPage(browser, "arjun@demo.loopride.in");
  await driver.goto("/rides/create");
  // A locality of the full list, typed (lower case): the server resolves it.
  await driver.getByLabel("Pickup location").fill("domlur");
  await driver.getByLabel("Drop location").fill("Manyata Tech Park");
  await driver.getByLabel("Date").fill(slot.date);
  await driver.getByLabel("Time").fill(slot.time);
  await driver.getByLabel("Available seats").selectOption("3");
  await driver.getByLabel("Trip cost (₹, the whole trip)").fill("300");
  await driver.getByRole("button", { name: "Create Ride", exact: true }).click();
  await expect(driver).toHaveURL(/\/dashboard\/rides$/);
  await expect(driver.getByTestId("toast")).toContainText("Ride created successfully!");

  // A typo gets a "did you mean" message and nothing is searched.
  const rider = await signedInPage(browser, "kavya@demo.loopride.in");
  await rider.goto("/rides");
  const search = rider.getByRole("search", { name: "Find rides near you" });
  await search.getByLabel("From (your locality)").fill("Agrm");
  await search.getByLabel("To", { exact: true }).fill("Manyata Tech Park");
  await search.getByLabel("Day", { exact: true }).fill(slot.date);
  await search.getByLabel("Around", { exact: true }).fill(plusMinutes(slot.time, 20));
  await search.getByRole("button", { name: "Find rides" }).click();
  await expect(search.getByText(/We don't know "Agrm"\. Did you mean .*Agram/)).toBeVisible();

  // Kavya lives in Agram, 1.2 km from Domlur, and wants to leave 20 minutes later.
  await search.getByLabel("From (your locality)").fill("Agram");
  await search.getByLabel("Leaving within").selectOption("30");
  await search.getByRole("button", { name: "Find rides" }).click();
  await expect(rider).toHaveURL(/from=Agram/);
  const card = rider.getByTestId("ride-card").filter({ hasText: "Arjun" }).filter({ hasText: "Domlur" });
  await expect(card).toHaveCount(1);
  // Along the route (issue 36, ADR 0049): she walks 1.2 km to the start, or the driver turns off
  // to Agram within their detour limit and picks her up there.
  await expect(card.getByTestId("pickup-distance")).toHaveText(/^Pickup (1\.2 km|0 m) from Agram$/);
  await expect(card.getByTestId("drop-distance")).toHaveText("Drop 0 m from Manyata Tech Park");
  await expect(card.getByTestId("minutes-off")).toHaveText(/^(Leaves|Pickup) (\d+ min (earlier|later)|on time)$/);
  // Saved from the card, she is back on the same search with the card marked saved.
  const searched = rider.url();
  await card.getByRole("button", { name: "Save", exact: true }).click();
  await expect(rider.getByTestId("toast")).toContainText("Trip Saved");
  expect(rider.url()).toBe(searched);
  await expect(card.getByRole("button", { name: "Saved", exact: true })).toHaveAttribute("aria-pressed", "true");
  await card.getByRole("button", { name: "Saved", exact: true }).click();
  await expect(rider.getByTestId("toast")).toContainText("Removed from saved trips");
  await expect(card.getByRole("button", { name: "Save", exact: true })).toHaveAttribute("aria-pressed", "false");
  expect(rider.url()).toBe(searched);

  // Within 1 km she does not walk to the start: if it is found, it is by the driver's detour to
  // Agram (issue 36, ADR 0049).
  await search.getByLabel("Walk at most").selectOption("1");
  await search.getByRole("button", { name: "Find rides" }).click();
  await expect(rider).toHaveURL(/radius=1&/);
  await expect(
    rider.getByTestId("ride-card").filter({ hasText: "Domlur" }).getByTestId("pickup-distance"),
  ).not.toHaveText(/1\.2 km/);
  await driver.context().close();
  await rider.context().close();
});
