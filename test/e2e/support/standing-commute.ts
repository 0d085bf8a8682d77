import { expect, type Page } from "@playwright/test";
import { patternDates, weekdayMask } from "../../../app/domain/commutes";
import { istDate, istToInstant } from "../../../app/domain/time";

// The standing-booking journeys' shared steps (issue 35): a Mon-Fri commute from Whitefield
// to Electronic City Phase 1, booked every weekday, accepted, and the clock moved past the
// 14 days through the test-only top-up path (ADR 0045).

export const DAY = 86_400_000;
export const WEEKDAYS = weekdayMask(["mon", "tue", "wed", "thu", "fri"]);

/** The days of the Mon-Fri pattern from `start` that exist as of `at` (the horizon). */
export const commuteDays = (start: string, at = Date.now()) =>
  patternDates({ weekdays: WEEKDAYS, startDate: start, endDate: null }, istDate(at));

/** The driver publishes the Mon-Fri commute (with a return if given); its page's path and id. */
export async function publishWeekdayCommute(
  driver: Page,
  o: { time: string; start: string; returnTime?: string },
): Promise<{ url: string; id: string }> {
  await driver.goto("/commutes/new");
  await driver.getByLabel("Pickup location").fill("Whitefield");
  await driver.getByLabel("Drop location").fill("Electronic City Phase 1");
  for (const day of ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"])
    await driver.getByLabel(day, { exact: true }).check();
  await driver.getByLabel("Departure time").fill(o.time);
  if (o.returnTime) await driver.getByLabel("Return time (optional)").fill(o.returnTime);
  await driver.getByLabel("Start date").fill(o.start);
  await driver.getByLabel("Available seats").selectOption("3");
  await driver.getByLabel("Trip cost (₹, each trip)").fill("200");
  await driver.getByRole("button", { name: "Publish Commute" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Commute published!");
  const url = new URL(driver.url()).pathname;
  return { url, id: url.split("/").pop()! };
}

/** The rider asks for every selected day on the commute page; `asked` days in the toast. */
export async function requestEveryDay(rider: Page, url: string, asked: number) {
  await rider.goto(url);
  await rider.getByRole("button", { name: "Request every selected day" }).click();
  await expect(rider.getByTestId("toast")).toContainText(`You asked for ${asked} days of this commute.`);
  await expect(rider.getByTestId("my-standing-booking")).toContainText("Mon–Fri · 1 seat · asked");
}

/** The driver accepts all `days` of the rider on the commute page. */
export async function acceptAll(driver: Page, url: string, riderName: string, days: number) {
  await driver.goto(url);
  const row = driver.getByTestId("commute-rider").filter({ hasText: riderName });
  await row.getByRole("button", { name: `Accept all ${days} from ${riderName}` }).click();
  await expect(driver.getByTestId("toast")).toContainText(`Accepted ${days} requests`);
}

/**
 * The commute's daily top-up as of `later` (the test-only path); it must add exactly the new
 * days (the horizon as of that clock, less the days there already or departed), each with
 * the standing booking's request. Returns those days.
 */
export async function topUpAsOf(
  page: Page,
  c: { id: string; time: string; start: string; firstDays: string[] },
  later: number,
) {
  const run = await page.request.post(`/__test/daily-top-up?commute=${c.id}&time=${later}`);
  expect(run.status()).toBe(200);
  const newDays = commuteDays(c.start, later).filter(
    (d) => !c.firstDays.includes(d) && istToInstant(d, c.time) > later,
  );
  expect(newDays.length).toBeGreaterThan(0);
  expect(await run.json()).toEqual({ days: newDays.length, requests: newDays.length });
  return newDays;
}

/** The rider's commute page shows the accepted booking and a seat on `days` days. */
export async function expectBookedOn(rider: Page, url: string, days: number) {
  await rider.goto(url);
  await expect(rider.getByTestId("my-standing-booking")).toContainText("Mon–Fri · 1 seat · accepted");
  await expect(rider.getByTestId("commute-day").filter({ hasText: "Accepted" })).toHaveCount(days);
}
