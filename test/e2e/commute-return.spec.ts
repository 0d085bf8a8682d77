import { expect, test, type Page } from "@playwright/test";
import { addDays, formatTime, formatWeekdayDate, istDate, istToInstant } from "../../app/domain/time";
import { newPage, signUpAndOnboard, unique, uniqueEmail } from "../support/e2e";
import {
  acceptAll,
  commuteDays,
  DAY,
  expectBookedOn,
  publishWeekdayCommute,
  requestEveryDay,
  topUpAsOf,
} from "./support/standing-commute";

// Issue 35, "What it must show", first bullet, with JavaScript on and off: a rider books a
// Mon-Fri commute every weekday WITH its return (ADR 0048); the driver accepts both legs; the
// clock moves past the 14 days (the test-only top-up path, ADR 0045) and the rider is still
// booked on the new days of both legs; the 5-minute run, twice, as of half an hour before the
// first morning ride (the test-only path in server.ts) puts one reminder in /dev/mailbox and
// one in the notifications panel; the dashboard shows the next ride first. Fresh sign-ups;
// the two runs use different hours (early, so the run's clock expires no other journey's day).
test.setTimeout(240_000);

const pad = (n: number) => String(n).padStart(2, "0");

async function confirmEmail(page: Page, email: string) {
  await page.goto("/dev/mailbox");
  await page
    .getByRole("listitem")
    .filter({ hasText: `To ${email.toLowerCase()}` })
    .filter({ hasText: "Confirm your e-mail address for LoopRide" })
    .first()
    .getByRole("link")
    .click();
  await page
    .getByRole("link", { name: /\/verify-email\?token=/ })
    .first()
    .click();
  await page.getByRole("button", { name: "Yes, confirm my e-mail" }).click();
  await expect(page.getByText("✓ Verified")).toBeVisible();
}

test("a commute with its return: booked both ways every weekday, still booked after 14 days, one reminder, next ride first", async ({
  browser,
}, info) => {
  const js = info.project.name === "js";
  const minute = pad(5 * Math.floor(Math.random() * 12));
  const time = `${js ? "04" : "05"}:${minute}`;
  const returnTime = `${js ? "16" : "17"}:${minute}`;
  const driverName = unique("Whitefield Driver");
  const riderName = unique("Priya Both Ways");
  // The driver publishes a Monday-Friday commute with a return, from tomorrow on.
  const driver = await newPage(browser, info.project.name);
  await signUpAndOnboard(driver, { fullName: driverName });
  const start = addDays(istDate(), 1);
  const out = await publishWeekdayCommute(driver, { time, start, returnTime });
  await expect(driver.getByTestId("toast")).toContainText("(both ways)");
  const leg = driver.getByTestId("other-leg");
  await expect(leg).toContainText(`Return: leaves Electronic City Phase 1 at ${formatTime(returnTime)}`);
  const backUrl = (await leg.getByRole("link", { name: "See the return" }).getAttribute("href"))!;
  const back = { url: backUrl, id: backUrl.split("/").pop()! };

  // The rider (e-mail confirmed, so reminders are mailed) books every weekday, both ways.
  const rider = await newPage(browser, info.project.name);
  const email = uniqueEmail("both-ways");
  await signUpAndOnboard(rider, { fullName: riderName, email, car: null });
  await confirmEmail(rider, email);
  await rider.goto(out.url);
  await expect(rider.getByLabel("Both")).toBeChecked();
  const firstDays = commuteDays(start);
  await requestEveryDay(rider, out.url, 2 * firstDays.length);

  // The driver accepts all, on each leg's page.
  for (const { url } of [out, back]) await acceptAll(driver, url, riderName, firstDays.length);

  // The clock moves past the 14 days: each leg's daily top-up runs as of 15 days from now, and
  // the rider holds a seat on every day of each leg, the new ones included, without asking again.
  const later = Date.now() + 15 * DAY;
  for (const [c, at] of [
    [out, time],
    [back, returnTime],
  ] as const) {
    const newDays = await topUpAsOf(driver, { id: c.id, time: at, start, firstDays }, later);
    await expectBookedOn(rider, c.url, firstDays.length + newDays.length);
  }

  // Half an hour before the first morning ride, the 5-minute run, twice (as the cron would).
  const firstRide = istToInstant(firstDays[0], time);
  for (let i = 0; i < 2; i++) {
    const run = await driver.request.post(`/__test/five-minute-run?time=${firstRide - 30 * 60_000}`);
    expect(run.status()).toBe(200);
  }
  const subject = `Reminder: Whitefield → Electronic City Phase 1 at ${formatTime(time)} IST`;
  await rider.goto("/dev/mailbox");
  const mails = rider
    .getByRole("listitem")
    .filter({ hasText: `To ${email.toLowerCase()}` })
    .filter({ hasText: subject });
  await expect(mails).toHaveCount(1);
  await rider.goto("/dashboard?panel=notifications#notifications");
  const reminders = rider.locator("#notifications").getByTestId("notification").filter({ hasText: "Ride reminder" });
  await expect(reminders).toHaveCount(1);
  await expect(reminders).toContainText(`leaves at ${formatTime(time)} on ${formatWeekdayDate(firstDays[0])}`);

  // The dashboard opens with the next ride: the first morning of the commute.
  await rider.goto("/dashboard");
  const next = rider.getByTestId("next-ride").first();
  await expect(next.getByTestId("next-ride-when")).toContainText(formatWeekdayDate(firstDays[0]));
  await expect(next.getByTestId("next-ride-when")).toContainText(formatTime(time));
  await expect(next).toContainText("Pickup: Whitefield");
  await expect(next).toContainText(`Driver: ${driverName}`);
  await expect(next).toContainText("Seat confirmed");
  for (const p of [driver, rider]) await p.context().close();
});
