import { expect, test } from "@playwright/test";
import { addDays, formatTime, istDate } from "../../app/domain/time";
import { newPage, signUpAndOnboard, unique } from "../support/e2e";
import {
  acceptAll,
  commuteDays,
  DAY,
  expectBookedOn,
  publishWeekdayCommute,
  requestEveryDay,
  topUpAsOf,
} from "./support/standing-commute";

// Issue 35, item 2, with JavaScript on and off: a rider books a Mon-Fri commute every weekday,
// the driver accepts all (the standing booking too), then the clock moves past the 14 days:
// the daily top-up runs as of 15 days later (the server's test-only top-up path, answered only
// with LOOPRIDE_STAGE=test), and the rider holds a seat on every new weekday without asking
// again. Fresh sign-ups; the two runs use different hours.
test.setTimeout(180_000);

test("a standing booking: book every weekday, the driver accepts all, and after 14 days the rider is still booked", async ({
  browser,
}, info) => {
  const hour = info.project.name === "js" ? 6 : 18;
  const time = `${String(hour).padStart(2, "0")}:${String(5 * Math.floor(Math.random() * 12)).padStart(2, "0")}`;
  const driverName = unique("Whitefield Driver");
  const riderName = unique("Priya Regular");
  // The driver publishes a Monday-Friday commute from tomorrow on.
  const driver = await newPage(browser, info.project.name);
  await signUpAndOnboard(driver, { fullName: driverName });
  const start = addDays(istDate(), 1);
  const { url, id } = await publishWeekdayCommute(driver, { time, start });

  // The rider books every weekday of it.
  const rider = await newPage(browser, info.project.name);
  await signUpAndOnboard(rider, { fullName: riderName, car: null });
  const firstDays = commuteDays(start);
  await requestEveryDay(rider, url, firstDays.length);

  // The driver sees the rider once, with the booking, and accepts all.
  await driver.goto(url);
  const row = driver.getByTestId("commute-rider").filter({ hasText: riderName });
  await expect(row).toHaveCount(1);
  // With where the driver picks the rider up (issue 36): the start, at the commute's time.
  await expect(row.getByTestId("standing-booking")).toHaveText(
    `Mon–Fri · 1 seat · asked · Picked up at Whitefield around ${formatTime(time)}`,
  );
  await acceptAll(driver, url, riderName, firstDays.length);
  await expect(driver.getByTestId("commute-rider").filter({ hasText: riderName })).toContainText(
    "Mon–Fri · 1 seat · accepted",
  );

  // The clock moves past the 14 days: the daily top-up runs as of 15 days from now.
  const newDays = await topUpAsOf(driver, { id, time, start, firstDays }, Date.now() + 15 * DAY);

  // The rider holds a seat on every day, the new ones included, without asking again.
  await expectBookedOn(rider, url, firstDays.length + newDays.length);
  for (const p of [driver, rider]) await p.context().close();
});
