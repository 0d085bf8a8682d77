import { expect, test } from "@playwright/test";
import { dayOfWeek, patternDates, weekdayMask } from "../../app/domain/commutes";
import { addDays, istDate } from "../../app/domain/time";
import { closeScanners, expectAccessible } from "../support/axe";
import { newPage, signUpAndOnboard, unique } from "../support/e2e";

test.afterAll(closeScanners);
// Three accessibility scans beside two users' journeys on a shared 2-core machine.
test.setTimeout(180_000);

// Issue 14, recurring commutes: a driver publishes a weekday commute once, a rider books
// every Monday-Wednesday day of it, the driver accepts them all at once, and My Rides shows
// the commute as one card. Fresh sign-ups, so the JS and no-JS runs never meet.

test("publish a weekday commute, book every Mon-Wed day, accept them at once, see the commute card", async ({
  browser,
}, info) => {
  const driverName = unique("Commute Driver");
  const riderName = unique("Commute Rider");
  const driver = await newPage(browser, info.project.name);
  await signUpAndOnboard(driver, { fullName: driverName });
  const rider = await newPage(browser, info.project.name);
  await signUpAndOnboard(rider, { fullName: riderName, car: null });

  const start = addDays(istDate(), 1);
  await driver.goto("/dashboard/rides");
  await driver.getByRole("link", { name: "Publish a Commute" }).click();
  await expect(driver.getByRole("heading", { name: "Publish a Commute" })).toBeVisible();
  await driver.getByLabel("Pickup location").fill("Koramangala");
  await driver.getByLabel("Drop location").fill("Embassy Tech Village");
  // Nothing ticked yet: a clear message, nothing published.
  await driver.getByLabel("Departure time").fill("08:45");
  await driver.getByLabel("Start date").fill(start);
  await driver.getByLabel("Available seats").selectOption("3");
  await driver.getByLabel("Trip cost (₹, each trip)").fill("240");
  await driver.getByRole("button", { name: "Publish Commute" }).click();
  await expect(driver.getByText("Please choose at least one weekday")).toBeVisible();
  await expectAccessible(driver, `${info.project.name} /commutes/new with errors`);
  for (const day of ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"])
    await driver.getByLabel(day, { exact: true }).check();
  await driver.getByRole("button", { name: "Publish Commute" }).click();
  await expect(driver).toHaveURL(/\/commutes\/[a-z0-9]+$/);
  await expect(driver.getByTestId("toast")).toContainText("Commute published!");
  await expect(driver.getByTestId("commute-pattern")).toContainText("Mon–Fri at 8:45 AM");
  const commuteUrl = new URL(driver.url()).pathname;

  // The rider books every Monday to Wednesday of it (Thursday and Friday unticked).
  const monToWed = patternDates(
    { weekdays: weekdayMask(["mon", "tue", "wed"]), startDate: start, endDate: null },
    istDate(),
  ).filter((d) => [1, 2, 3].includes(dayOfWeek(d)));
  await rider.goto(commuteUrl);
  await expect(rider.getByRole("heading", { name: "Book every day of this commute" })).toBeVisible();
  await expectAccessible(rider, `${info.project.name} /commutes/:id as a rider`);
  await rider.getByLabel("Thursday", { exact: true }).uncheck();
  await rider.getByLabel("Friday", { exact: true }).uncheck();
  await rider.getByRole("button", { name: "Request every selected day" }).click();
  await expect(rider.getByTestId("toast")).toContainText(`You asked for ${monToWed.length} days of this commute.`);
  await expect(rider.getByTestId("commute-day").filter({ hasText: "Pending" })).toHaveCount(monToWed.length);

  // The driver accepts them all at once.
  await driver.goto(commuteUrl);
  const row = driver.getByTestId("commute-rider").filter({ hasText: riderName });
  await expect(row).toContainText(`${monToWed.length} pending · 0 accepted`);
  await expectAccessible(driver, `${info.project.name} /commutes/:id as its driver`);
  await row.getByRole("button", { name: `Accept all ${monToWed.length} from ${riderName}` }).click();
  await expect(driver.getByTestId("toast")).toContainText(`Accepted ${monToWed.length} requests`);
  await expect(driver.getByTestId("commute-rider").filter({ hasText: riderName })).toContainText(
    `0 pending · ${monToWed.length} accepted`,
  );

  // My Rides: one card for the commute, with its next days.
  await driver.goto("/dashboard/rides");
  const card = driver.getByTestId("commute-card").filter({ hasText: "Embassy Tech Village" });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("Mon–Fri at 8:45 AM");
  await expect(card.getByRole("list", { name: "Next days" }).getByRole("listitem")).toHaveCount(5);
  await rider.goto(commuteUrl);
  await expect(rider.getByTestId("commute-day").filter({ hasText: "Accepted" })).toHaveCount(monToWed.length);
});
