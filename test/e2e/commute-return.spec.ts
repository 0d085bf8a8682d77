import { expect, test, type Page } from "@playwright/test";
import { patternDates, weekdayMask } from "../../app/domain/commutes";
import { addDays, formatTime, formatWeekdayDate, istDate, istToInstant } from "../../app/domain/time";
import { newPage, signUpAndOnboard, unique, uniqueEmail } from "../support/e2e";

// Issue 35, "What it must show", first bullet, with JavaScript on and off: a rider books a
// Mon-Fri commute every weekday WITH its return (ADR 0048); the driver accepts both legs; the
// clock moves past the 14 days (the test-only top-up path, ADR 0045) and the rider is still
// booked on the new days of both legs; the 5-minute run, twice, as of half an hour before the
// first morning ride (the test-only path in server.ts) puts one reminder in /dev/mailbox and
// one in the notifications panel; the dashboard shows the next ride first. Fresh sign-ups;
// the two runs use different hours (early, so the run's clock expires no other journey's day).
test.setTimeout(240_000);

const DAY = 86_400_000;
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
  const weekdays = weekdayMask(["mon", "tue", "wed", "thu", "fri"]);

  // The driver publishes a Monday-Friday commute with a return, from tomorrow on.
  const driver = await newPage(browser, info.project.name);
  await signUpAndOnboard(driver, { fullName: driverName });
  const start = addDays(istDate(), 1);
  await driver.goto("/commutes/new");
  await driver.getByLabel("Pickup location").fill("Whitefield");
  await driver.getByLabel("Drop location").fill("Electronic City Phase 1");
  for (const day of ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"])
    await driver.getByLabel(day, { exact: true }).check();
  await driver.getByLabel("Departure time").fill(time);
  await driver.getByLabel("Return time (optional)").fill(returnTime);
  await driver.getByLabel("Start date").fill(start);
  await driver.getByLabel("Available seats").selectOption("3");
  await driver.getByLabel("Trip cost (₹, each trip)").fill("200");
  await driver.getByRole("button", { name: "Publish Commute" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Commute published!");
  await expect(driver.getByTestId("toast")).toContainText("(both ways)");
  const outUrl = new URL(driver.url()).pathname;
  const outId = outUrl.split("/").pop()!;
  const leg = driver.getByTestId("other-leg");
  await expect(leg).toContainText(`Return: leaves Electronic City Phase 1 at ${formatTime(returnTime)}`);
  const backUrl = (await leg.getByRole("link", { name: "See the return" }).getAttribute("href"))!;
  const backId = backUrl.split("/").pop()!;

  // The rider (e-mail confirmed, so reminders are mailed) books every weekday, both ways.
  const rider = await newPage(browser, info.project.name);
  const email = uniqueEmail("both-ways");
  await signUpAndOnboard(rider, { fullName: riderName, email, car: null });
  await confirmEmail(rider, email);
  await rider.goto(outUrl);
  await expect(rider.getByLabel("Both")).toBeChecked();
  const firstDays = patternDates({ weekdays, startDate: start, endDate: null }, istDate());
  await rider.getByRole("button", { name: "Request every selected day" }).click();
  await expect(rider.getByTestId("toast")).toContainText(`You asked for ${2 * firstDays.length} days of this commute.`);
  await expect(rider.getByTestId("my-standing-booking")).toContainText("Mon–Fri · 1 seat · asked");

  // The driver accepts all, on each leg's page.
  for (const url of [outUrl, backUrl]) {
    await driver.goto(url);
    const row = driver.getByTestId("commute-rider").filter({ hasText: riderName });
    await row.getByRole("button", { name: `Accept all ${firstDays.length} from ${riderName}` }).click();
    await expect(driver.getByTestId("toast")).toContainText(`Accepted ${firstDays.length} requests`);
  }

  // The clock moves past the 14 days: each leg's daily top-up runs as of 15 days from now.
  const later = Date.now() + 15 * DAY;
  for (const [id, at, url] of [
    [outId, time, outUrl],
    [backId, returnTime, backUrl],
  ]) {
    const run = await driver.request.post(`/__test/daily-top-up?commute=${id}&time=${later}`);
    expect(run.status()).toBe(200);
    const newDays = patternDates({ weekdays, startDate: start, endDate: null }, istDate(later)).filter(
      (d) => !firstDays.includes(d) && istToInstant(d, at) > later,
    );
    expect(newDays.length).toBeGreaterThan(0);
    expect(await run.json()).toEqual({ days: newDays.length, requests: newDays.length });
    // The rider holds a seat on every day of this leg, the new ones included, without asking again.
    await rider.goto(url);
    await expect(rider.getByTestId("my-standing-booking")).toContainText("Mon–Fri · 1 seat · accepted");
    const accepted = rider.getByTestId("commute-day").filter({ hasText: "Accepted" });
    await expect(accepted).toHaveCount(firstDays.length + newDays.length);
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
