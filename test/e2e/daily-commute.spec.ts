import { expect, test } from "@playwright/test";
import { dayOfWeek, patternDates, weekdayMask } from "../../app/domain/commutes";
import { addDays, istDate } from "../../app/domain/time";
import { newPage, signUpAndOnboard, unique } from "../support/e2e";

// Issue 14's whole journey, with JavaScript on and off: a watcher saves a weekday search; a
// driver publishes a weekday commute from Domlur to Manyata Tech Park and the watcher gets an
// alert; a rider living in Agram (1.2 km from Domlur) searches on Monday-Wednesday at a time
// 20 minutes off, finds the commute with the distances shown, books every Monday-Wednesday
// day of it, and the driver accepts them all at once. Fresh sign-ups; the two runs use
// different hours, so neither finds or alerts the other's commute.
test.setTimeout(180_000);

const at = (hour: number, minute: number) => `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;

test("a weekday commute: a saved search is alerted, a rider 1.2 km away and 20 minutes off finds it, books Mon-Wed, the driver accepts all", async ({
  browser,
}, info) => {
  const minute = 5 * Math.floor(Math.random() * 8);
  const hour = info.project.name === "js" ? 7 : 17;
  const time = at(hour, minute);
  const driverName = unique("Domlur Driver");
  const riderName = unique("Agram Rider");

  // The watcher saves a weekday search around the commute's time.
  const watcher = await newPage(browser, info.project.name);
  await signUpAndOnboard(watcher, { fullName: unique("Domlur Watcher"), car: null });
  await watcher.goto("/rides");
  let search = watcher.getByRole("search", { name: "Find rides near you" });
  await search.getByLabel("From (your locality)").fill("Domlur");
  await search.getByLabel("To", { exact: true }).fill("Manyata Tech Park");
  await search.getByLabel("On weekdays (regular commutes)").check();
  for (const d of ["Mon", "Tue", "Wed", "Thu", "Fri"]) await search.getByLabel(d, { exact: true }).check();
  await search.getByLabel("Around", { exact: true }).fill(time);
  await search.getByRole("button", { name: "Find rides" }).click();
  await expect(watcher).toHaveURL(/mode=weekdays/);
  const save = watcher.getByRole("form", { name: "Save this search" });
  await expect(save.getByLabel("Monday")).toBeChecked();
  await expect(save.getByLabel("Saturday")).not.toBeChecked();
  await save.getByRole("button", { name: "Save this search" }).click();
  await expect(watcher.getByTestId("toast")).toContainText("Search saved");
  await expect(watcher.getByTestId("saved-search").filter({ hasText: "Domlur → Manyata Tech Park" })).toContainText(
    "Mon–Fri around",
  );

  // The driver publishes a Monday-Friday commute from tomorrow on.
  const driver = await newPage(browser, info.project.name);
  await signUpAndOnboard(driver, { fullName: driverName });
  const start = addDays(istDate(), 1);
  await driver.goto("/commutes/new");
  await driver.getByLabel("Pickup location").fill("Domlur");
  await driver.getByLabel("Drop location").fill("Manyata Tech Park");
  for (const day of ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"])
    await driver.getByLabel(day, { exact: true }).check();
  await driver.getByLabel("Departure time").fill(time);
  await driver.getByLabel("Start date").fill(start);
  await driver.getByLabel("Available seats").selectOption("3");
  await driver.getByLabel("Trip cost (₹, each trip)").fill("180");
  await driver.getByRole("button", { name: "Publish Commute" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Commute published!");
  const commuteUrl = new URL(driver.url()).pathname;
  expect(commuteUrl).toMatch(/^\/commutes\/[a-z0-9]+$/);

  // The watcher's alert links to one of its days.
  await watcher.goto("/dashboard?panel=notifications#notifications");
  const alert = watcher
    .locator("#notifications")
    .getByTestId("notification")
    .filter({ hasText: "New ride for your saved search" });
  await expect(alert).toHaveCount(1);
  await expect(alert).toContainText("A weekly commute from Domlur to Manyata Tech Park");
  await alert.getByRole("link", { name: "New ride for your saved search" }).click();
  await expect(watcher.getByRole("main")).toContainText(driverName);

  // The rider, in Agram, searches Monday-Wednesday 20 minutes later than the commute.
  const rider = await newPage(browser, info.project.name);
  await signUpAndOnboard(rider, { fullName: riderName, car: null });
  await rider.goto("/rides");
  search = rider.getByRole("search", { name: "Find rides near you" });
  await search.getByLabel("From (your locality)").fill("Agram");
  await search.getByLabel("To", { exact: true }).fill("Manyata Tech Park");
  await search.getByLabel("On weekdays (regular commutes)").check();
  for (const d of ["Mon", "Tue", "Wed"]) await search.getByLabel(d, { exact: true }).check();
  await search.getByLabel("Around", { exact: true }).fill(at(hour, minute + 20));
  await search.getByLabel("Leaving within").selectOption("30");
  await search.getByRole("button", { name: "Find rides" }).click();
  await expect(rider).toHaveURL(/mode=weekdays/);
  const card = rider.getByTestId("ride-card").filter({ hasText: driverName });
  await expect(card).toHaveCount(1);
  // Along the route (issue 36, ADR 0049): she walks 1.2 km to the start, or the driver turns off
  // to Agram within their detour limit and picks her up there.
  await expect(card.getByTestId("pickup-distance")).toHaveText(/^Pickup (1\.2 km|0 m) from Agram$/);
  await expect(card.getByTestId("drop-distance")).toHaveText("Drop 0 m from Manyata Tech Park");
  await expect(card.getByTestId("minutes-off")).toHaveText(/^(Leaves|Pickup) (\d+ min (earlier|later)|on time)$/);
  // The day shown is a Monday, Tuesday or Wednesday.
  await card.getByRole("link", { name: /Domlur/ }).click();
  await rider.getByRole("link", { name: "A recurring commute: see every day" }).click();
  await expect(rider).toHaveURL(new RegExp(`${commuteUrl}$`));

  // Every Monday to Wednesday of it (Thursday and Friday unticked).
  const monToWed = patternDates(
    { weekdays: weekdayMask(["mon", "tue", "wed"]), startDate: start, endDate: null },
    istDate(),
  ).filter((d) => [1, 2, 3].includes(dayOfWeek(d)));
  await rider.getByLabel("Thursday", { exact: true }).uncheck();
  await rider.getByLabel("Friday", { exact: true }).uncheck();
  await rider.getByRole("button", { name: "Request every selected day" }).click();
  await expect(rider.getByTestId("toast")).toContainText(`You asked for ${monToWed.length} days of this commute.`);

  // The driver accepts them all at once; the rider sees every day accepted.
  await driver.goto(commuteUrl);
  const row = driver.getByTestId("commute-rider").filter({ hasText: riderName });
  await expect(row).toContainText(`${monToWed.length} pending · 0 accepted`);
  await row.getByRole("button", { name: `Accept all ${monToWed.length} from ${riderName}` }).click();
  await expect(driver.getByTestId("toast")).toContainText(`Accepted ${monToWed.length} requests`);
  await rider.goto(commuteUrl);
  await expect(rider.getByTestId("commute-day").filter({ hasText: "Accepted" })).toHaveCount(monToWed.length);
  for (const p of [watcher, driver, rider]) await p.context().close();
});
