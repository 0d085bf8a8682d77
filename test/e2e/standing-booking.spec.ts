import { expect, test } from "@playwright/test";
import { patternDates, weekdayMask } from "../../app/domain/commutes";
import { addDays, istDate, istToInstant } from "../../app/domain/time";
import { newPage, signUpAndOnboard, unique } from "../support/e2e";

// Issue 35, item 2, with JavaScript on and off: a rider books a Mon-Fri commute every weekday,
// the driver accepts all (the standing booking too), then the clock moves past the 14 days:
// the daily top-up runs as of 15 days later (the server's test-only top-up path, answered only
// with LOOPRIDE_STAGE=test), and the rider holds a seat on every new weekday without asking
// again. Fresh sign-ups; the two runs use different hours.
test.setTimeout(180_000);

const DAY = 86_400_000;

test("a standing booking: book every weekday, the driver accepts all, and after 14 days the rider is still booked", async ({
  browser,
}, info) => {
  const hour = info.project.name === "js" ? 6 : 18;
  const time = `${String(hour).padStart(2, "0")}:${String(5 * Math.floor(Math.random() * 12)).padStart(2, "0")}`;
  const driverName = unique("Whitefield Driver");
  const riderName = unique("Priya Regular");
  const weekdays = weekdayMask(["mon", "tue", "wed", "thu", "fri"]);

  // The driver publishes a Monday-Friday commute from tomorrow on.
  const driver = await newPage(browser, info.project.name);
  await signUpAndOnboard(driver, { fullName: driverName });
  const start = addDays(istDate(), 1);
  await driver.goto("/commutes/new");
  await driver.getByLabel("Pickup location").fill("Whitefield");
  await driver.getByLabel("Drop location").fill("Electronic City Phase 1");
  for (const day of ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"])
    await driver.getByLabel(day, { exact: true }).check();
  await driver.getByLabel("Departure time").fill(time);
  await driver.getByLabel("Start date").fill(start);
  await driver.getByLabel("Available seats").selectOption("3");
  await driver.getByLabel("Trip cost (₹, each trip)").fill("200");
  await driver.getByRole("button", { name: "Publish Commute" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Commute published!");
  const commuteUrl = new URL(driver.url()).pathname;
  const commuteId = commuteUrl.split("/").pop()!;

  // The rider books every weekday of it.
  const rider = await newPage(browser, info.project.name);
  await signUpAndOnboard(rider, { fullName: riderName, car: null });
  await rider.goto(commuteUrl);
  const firstDays = patternDates({ weekdays, startDate: start, endDate: null }, istDate());
  await rider.getByRole("button", { name: "Request every selected day" }).click();
  await expect(rider.getByTestId("toast")).toContainText(`You asked for ${firstDays.length} days of this commute.`);
  await expect(rider.getByTestId("my-standing-booking")).toContainText("Mon–Fri · 1 seat · asked");

  // The driver sees the rider once, with the booking, and accepts all.
  await driver.goto(commuteUrl);
  const row = driver.getByTestId("commute-rider").filter({ hasText: riderName });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("standing-booking")).toHaveText("Mon–Fri · 1 seat · asked");
  await row.getByRole("button", { name: `Accept all ${firstDays.length} from ${riderName}` }).click();
  await expect(driver.getByTestId("toast")).toContainText(`Accepted ${firstDays.length} requests`);
  await expect(driver.getByTestId("commute-rider").filter({ hasText: riderName })).toContainText(
    "Mon–Fri · 1 seat · accepted",
  );

  // The clock moves past the 14 days: the daily top-up runs as of 15 days from now.
  const later = Date.now() + 15 * DAY;
  const run = await driver.request.post(`/__test/daily-top-up?commute=${commuteId}&time=${later}`);
  expect(run.status()).toBe(200);
  // The new days: the horizon as of that clock, less the days it finds already there (or departed).
  const newDays = patternDates({ weekdays, startDate: start, endDate: null }, istDate(later)).filter(
    (d) => !firstDays.includes(d) && istToInstant(d, time) > later,
  );
  expect(newDays.length).toBeGreaterThan(0);
  expect(await run.json()).toEqual({ days: newDays.length, requests: newDays.length });

  // The rider holds a seat on every day, the new ones included, without asking again.
  await rider.goto(commuteUrl);
  await expect(rider.getByTestId("my-standing-booking")).toContainText("Mon–Fri · 1 seat · accepted");
  const accepted = rider.getByTestId("commute-day").filter({ hasText: "Accepted" });
  await expect(accepted).toHaveCount(firstDays.length + newDays.length);
  for (const p of [driver, rider]) await p.context().close();
});
