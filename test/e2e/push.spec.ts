import { expect, test } from "@playwright/test";
import { launchOptions } from "../../scripts/lib/chromium.mjs";
import { expectAccessible } from "../support/axe";
import { signUpAndOnboard } from "../support/e2e";

// Issue 15: what Settings says about browser push notifications, with and without JavaScript.
// Chromium's headless shell, which runs the other journeys, always reports notifications as
// denied, so this file runs in the full browser, whose new visitor has not been asked yet.
test.use({ launchOptions: launchOptions({ full: true }) });

test("Settings says honestly what browser push needs, and offers to turn it on with JavaScript", async ({
  page,
  context,
}, info) => {
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
    const sw =
      context.serviceWorkers().find((w) => w.url().endsWith("/sw.js")) ?? (await context.waitForEvent("serviceworker"));
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
        const r = registrations.find(
          (x: { scopeURL: string; isDeleted: boolean }) => x.scopeURL === scope && !x.isDeleted,
        );
        if (r) resolve(r.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    const registrationId = await registered;
    const origin = new URL(page.url()).origin;
    const push = (data: unknown) =>
      cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: JSON.stringify(data) });
    const shown = () => sw.evaluate(() => (self as unknown as { shown: unknown[] }).shown);
    await push({
      title: "Request accepted",
      body: "Priya Sharma accepted your request for HSR Layout → Manyata Tech Park.",
      url: "/dashboard/rides",
      tag: "n1",
    });
    // A link off the site in a payload is never opened: the worker falls back to the dashboard.
    await push({ title: "Phish", body: "x", url: "//evil.example/", tag: "n2" });
    await expect.poll(shown).toEqual([
      {
        title: "Request accepted",
        body: "Priya Sharma accepted your request for HSR Layout → Manyata Tech Park.",
        tag: "n1",
        url: "/dashboard/rides",
      },
      { title: "Phish", body: "x", tag: "n2", url: "/dashboard" },
    ]);
  }
});
