import { expect, test } from "@playwright/test";
import { newPage, signUpAndOnboard, unique } from "../support/e2e";

// Issue 36's journey, with JavaScript on and off: a driver publishes Whitefield -> Electronic
// City via Marathahalli on a weekday; a rider in Bellandur, on the way, finds it with the
// pickup point and its estimated time, books with that pickup, the driver accepts, and the
// driver's ride page lists the pickup in order. Fresh sign-ups; the two runs use different
// hours, and every check is narrowed to this run's driver.
test.setTimeout(120_000);

const DAY = 86_400_000;
const at = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** A Monday to Friday 30-200 days ahead (IST), unlikely to hold another run's ride. */
function weekday() {
  for (let d = 30 + Math.floor(Math.random() * 170); ; d++) {
    const day = new Date(Date.now() + 5.5 * 3600_000 + d * DAY);
    if (day.getUTCDay() >= 1 && day.getUTCDay() <= 5) return day.toISOString().slice(0, 10);
  }
}

test("a rider on the driver's way (Bellandur) finds the ride via Marathahalli, books that pickup, and the driver sees it in order", async ({
  browser,
}, info) => {
  const departs = (info.project.name === "js" ? 7 : 16) * 60 + 5 * Math.floor(Math.random() * 6);
  const date = weekday();
  const driverName = unique("Whitefield Driver");
  const riderName = unique("Bellandur Rider");

  // The driver publishes through the real Create Ride form, with Marathahalli as a via.
  const driver = await newPage(browser, info.project.name);
  await signUpAndOnboard(driver, { fullName: driverName });
  await driver.goto("/rides/create");
  await driver.getByLabel("Pickup location").fill("Whitefield");
  // The name people use: the server resolves it to Electronic City Phase 1.
  await driver.getByLabel("Drop location").fill("Electronic City");
  await driver.getByLabel("Via 1").fill("Marathahalli");
  await driver.getByLabel("Date").fill(date);
  await driver.getByLabel("Time").fill(at(departs));
  await driver.getByLabel("Available seats").selectOption("3");
  await driver.getByLabel("Trip cost (₹, the whole trip)").fill("400");
  await driver.getByRole("button", { name: "Create Ride", exact: true }).click();
  await expect(driver).toHaveURL(/\/dashboard\/rides$/);
  await expect(driver.getByTestId("toast")).toContainText("Ride created successfully!");

  // The rider searches from Bellandur, about when the driver passes there.
  const rider = await newPage(browser, info.project.name);
  await signUpAndOnboard(rider, { fullName: riderName, car: null });
  await rider.goto("/rides");
  const search = rider.getByRole("search", { name: "Find rides near you" });
  await search.getByLabel("From (your locality)").fill("Bellandur");
  await search.getByLabel("To", { exact: true }).fill("Electronic City");
  await search.getByLabel("Day", { exact: true }).fill(date);
  await search.getByLabel("Around", { exact: true }).fill(at(departs + 45));
  await search.getByLabel("Leaving within").selectOption("30");
  // The search ranges its index on one end (ADR 0030): within 5 km that is Electronic City,
  // and the ride's start is then matched along its route.
  await search.getByLabel("Walk at most").selectOption("5");
  await search.getByRole("button", { name: "Find rides" }).click();
  await expect(rider).toHaveURL(/from=Bellandur/);
  const card = rider.getByTestId("ride-card").filter({ hasText: driverName });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("Whitefield");
  await expect(card).toContainText("Electronic City Phase 1");
  // Picked up in Bellandur itself, later than the departure from Whitefield.
  const point = card.getByTestId("pickup-point");
  await expect(point).toHaveText(/^Picked up at Bellandur around \d{1,2}:\d{2} [AP]M$/);
  const pickupTime = (await point.textContent())!.replace("Picked up at Bellandur around ", "");
  const [h, m] = pickupTime.split(/[: ]/);
  const pickupMinutes = ((Number(h) % 12) + (pickupTime.endsWith("PM") ? 12 : 0)) * 60 + Number(m);
  expect(pickupMinutes).toBeGreaterThan(departs);
  expect(pickupMinutes - departs).toBeLessThan(90);
  await expect(card.getByTestId("pickup-distance")).toHaveText("Pickup 0 m from Bellandur");
  const rideId = (await card.getByRole("link", { name: /Whitefield/ }).getAttribute("href"))!.split("/").pop()!;

  // Booking with that pickup: the form offers it with its time, the map's text lists it.
  await card.getByRole("link", { name: "Book with pickup at Bellandur" }).click();
  await expect(rider).toHaveURL(new RegExp(`/rides/${rideId}/book\\?pickup=Bellandur$`));
  const pickup = rider.getByLabel("Pickup point");
  await expect(pickup).toHaveValue("Bellandur");
  await expect(pickup.locator("option:checked")).toHaveText(new RegExp(`^Bellandur · around ${pickupTime}`));
  const points = rider.getByRole("list", { name: "Points on the map" });
  await expect(points.getByRole("listitem")).toHaveText([
    "Start: Whitefield",
    "Via: Marathahalli",
    `Pickup: Bellandur, around ${pickupTime}`,
    "End: Electronic City Phase 1",
  ]);
  await rider.getByRole("button", { name: "Request Seats" }).click();
  await expect(rider).toHaveURL(/\/booking-confirmation\/[a-z0-9]+$/);
  await expect(rider.getByTestId("toast")).toContainText("Ride request submitted!");

  // The driver accepts on the ride page, which lists the pickup in the route's order.
  await driver.goto(`/rides/${rideId}`);
  const request = driver.getByTestId("ride-request").filter({ hasText: riderName });
  await request.getByRole("button", { name: "Accept" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Request accepted successfully!");
  await expect(driver.getByRole("region", { name: "Pickups in order" }).getByTestId("pickup-stop")).toHaveText([
    `${pickupTime} · Bellandur · ${riderName} (1 seat)`,
  ]);
  await expect(driver.getByRole("list", { name: "Points on the map" })).toContainText("Via: Marathahalli");

  // The rider's ride page names their pickup and its time under the map.
  await rider.goto(`/rides/${rideId}`);
  await expect(rider.getByRole("list", { name: "Points on the map" }).getByRole("listitem")).toHaveText([
    "Start: Whitefield",
    "Via: Marathahalli",
    `Pickup: Bellandur, around ${pickupTime}`,
    "End: Electronic City Phase 1",
  ]);
  for (const p of [driver, rider]) await p.context().close();
});
