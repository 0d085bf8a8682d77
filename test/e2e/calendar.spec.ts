import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { expectAccessible } from "../support/axe";
import { send, signUpAndOnboard, uniqueSlot } from "../support/e2e";

// Issue 15: a ride's calendar download and the private calendar feed in Settings (browser push
// is in push.spec.ts).

/** 2026-12-01 + 08:30 IST as the UTC iCalendar stamp (IST is UTC+05:30). */
function icsUtc(date: string, time: string) {
  const [y, m, d] = date.split("-").map(Number);
  const [hh, mm] = time.split(":").map(Number);
  return new Date(Date.UTC(y, m - 1, d, hh, mm) - 330 * 60_000)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

test("a driver adds their ride to a calendar and gets, uses and turns off a private feed URL", async ({ page }) => {
  await signUpAndOnboard(page, { fullName: "Chitra Calendar" });
  const slot = uniqueSlot();
  await page.goto("/rides/create");
  await page.getByLabel("Pickup location").fill("Koramangala");
  await page.getByLabel("Drop location").fill("Whitefield ITPL");
  await page.getByLabel("Trip cost (₹, the whole trip)").fill("450");
  await page.getByLabel("Date").fill(slot.date);
  await page.getByLabel("Time").fill(slot.time);
  await page.getByLabel("Available seats").selectOption("3");
  await page.getByRole("button", { name: "Create Ride", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/rides$/);
  await page
    .getByTestId("created-ride")
    .filter({ hasText: slot.label })
    .first()
    .getByRole("link", { name: "View ride" })
    .click();
  await expect(page).toHaveURL(/\/rides\/[a-z0-9]+$/);
  const rideId = new URL(page.url()).pathname.split("/").pop()!;

  // The ride page's download, in UTC at the IST departure.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Add to calendar (.ics)" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`loopride-ride-${rideId}.ics`);
  const ics = readFileSync((await download.path())!, "utf8");
  expect(ics).toContain("BEGIN:VCALENDAR");
  expect(ics).toContain(`DTSTART:${icsUtc(slot.date, slot.time)}`);
  expect(ics).toContain("SUMMARY:LoopRide: Koramangala → Whitefield ITPL");

  // Settings: a private feed URL, shown once, that a calendar app can read without a cookie.
  await page.goto("/dashboard/settings");
  await expect(page.getByTestId("calendar-feed-none")).toBeVisible();
  await page.getByRole("button", { name: "Get a calendar feed URL" }).click();
  await expect(page.getByTestId("toast")).toContainText("Calendar feed ready");
  const feedUrl = await page.getByTestId("calendar-feed-url").inputValue();
  await expectAccessible(page, "settings with a new calendar feed URL");
  expect(feedUrl).toMatch(/\/calendar\/[0-9a-f]{64}\/rides\.ics$/);
  // Issue 38, defect 5: a webcal:// link subscribes a calendar app; with JavaScript, Copy URL.
  await expect(page.getByRole("link", { name: "Add to my calendar app" })).toHaveAttribute(
    "href",
    feedUrl.replace(/^https?:/, "webcal:"),
  );
  if (test.info().project.name === "js") {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy URL" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(feedUrl);
  } else {
    await expect(page.getByRole("button", { name: "Copy URL" })).toHaveCount(0);
  }
  const feed = await send(page.request, feedUrl, { headers: { Cookie: "" } });
  expect(feed.status()).toBe(200);
  const feedText = await feed.text();
  expect(feedText).toContain(`UID:ride-${rideId}@loopride`);
  expect(feedText).toContain(`DTSTART:${icsUtc(slot.date, slot.time)}`);

  await page.getByRole("button", { name: "Turn off the feed" }).click();
  await expect(page.getByTestId("toast")).toContainText("Calendar feed turned off");
  await expect(page.getByTestId("calendar-feed-none")).toBeVisible();
  expect((await send(page.request, feedUrl)).status()).toBe(404);
});
