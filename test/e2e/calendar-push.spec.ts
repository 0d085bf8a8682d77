import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { expectAccessible } from "../support/axe";
import { signUpAndOnboard, uniqueSlot } from "../support/e2e";

// Issue 15: a ride's calendar download, the private calendar feed in Settings, and what Settings
// says about browser push notifications (with and without JavaScript).

/** 2026-12-01 + 08:30 IST as the UTC iCalendar stamp (IST is UTC+05:30). */
function icsUtc(date: string, time: string) {
  const [y, m, d] = date.split("-").map(Number);
  const [hh, mm] = time.split(":").map(Number);
  return new Date(Date.UTC(y, m - 1, d, hh, mm) - 330 * 60_000).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
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
  await page.getByTestId("created-ride").filter({ hasText: slot.label }).first().getByRole("link", { name: "View ride" }).click();
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
  const feed = await page.request.get(feedUrl, { headers: { Cookie: "" } });
  expect(feed.status()).toBe(200);
  const feedText = await feed.text();
  expect(feedText).toContain(`UID:ride-${rideId}@loopride`);
  expect(feedText).toContain(`DTSTART:${icsUtc(slot.date, slot.time)}`);

  await page.getByRole("button", { name: "Turn off the feed" }).click();
  await expect(page.getByTestId("toast")).toContainText("Calendar feed turned off");
  await expect(page.getByTestId("calendar-feed-none")).toBeVisible();
  expect((await page.request.get(feedUrl)).status()).toBe(404);
});

test("Settings says honestly what browser push needs, and offers to turn it on with JavaScript", async ({ page, context }, info) => {
  await signUpAndOnboard(page, { fullName: "Pooja Push" });
  await page.goto("/dashboard/settings");
  const device = page.getByTestId("push-device");
  if (info.project.name === "no-js") {
    await expect(device).toHaveAttribute("data-state", "no-js");
    await expect(device).toContainText("Browser notifications need JavaScript in this browser");
    await expect(page.getByTestId("push-on")).toHaveCount(0);
    await expectAccessible(page, "settings without JavaScript");
  } else {
    // Headless Chromium has a service worker and the Push API; this browser is not subscribed.
    await expect(device).toHaveAttribute("data-state", "off");
    await expect(device).toContainText("This browser is not subscribed.");
    await expect(page.getByTestId("push-on")).toBeVisible();
    await expectAccessible(page, "settings with the push button");
    // The service worker registered from /sw.js.
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(new URL("/", page.url()).href);

    // public/sw.js turns a push message into a notification. Chromium delivers one through the
    // DevTools protocol, as its push service would (subscribing itself needs Google's push
    // service, which this headless browser cannot reach: that step is not tested here).
    await context.grantPermissions(["notifications"], { origin: new URL(page.url()).origin });
    const sw = context.serviceWorkers().find((w) => w.url().endsWith("/sw.js")) ?? (await context.waitForEvent("serviceworker"));
    // Record what the worker shows (headless Chromium has no notification centre to list them).
    await sw.evaluate(() => {
      const g = self as unknown as { shown: unknown[]; registration: ServiceWorkerRegistration };
      g.shown = [];
      const show = g.registration.showNotification.bind(g.registration);
      g.registration.showNotification = (title: string, options?: NotificationOptions) => {
        g.shown.push({ title, body: options?.body, tag: options?.tag, url: (options?.data as { url?: string })?.url });
        return show(title, options).catch(() => undefined);
      };
    });
    const cdp = await context.newCDPSession(page);
    const registered = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const r = registrations.find((x: { scopeURL: string; isDeleted: boolean }) => x.scopeURL === scope && !x.isDeleted);
        if (r) resolve(r.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    const registrationId = await registered;
    const origin = new URL(page.url()).origin;
    const push = (data: unknown) => cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: JSON.stringify(data) });
    const shown = () => sw.evaluate(() => (self as unknown as { shown: unknown[] }).shown);
    await push({ title: "Request accepted", body: "Priya Sharma accepted your request for HSR Layout → Manyata Tech Park.", url: "/dashboard/rides", tag: "n1" });
    // A link off the site in a payload is never opened: the worker falls back to the dashboard.
    await push({ title: "Phish", body: "x", url: "//evil.example/", tag: "n2" });
    await expect.poll(shown).toEqual([
      { title: "Request accepted", body: "Priya Sharma accepted your request for HSR Layout → Manyata Tech Park.", tag: "n1", url: "/dashboard/rides" },
      { title: "Phish", body: "x", tag: "n2", url: "/dashboard" },
    ]);
  }
});
