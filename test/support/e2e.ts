import { expect, test, type APIRequestContext, type Browser, type Cookie, type Page } from "@playwright/test";

// Browser journey helpers (Playwright): sign-up, sign-in, offering a ride, booking a seat.

export const DEMO_PASSWORD = "carpool-bengaluru";

/**
 * Every request a journey sends from Node (Playwright's APIRequestContext: `page.request` or
 * `request.newContext()`) goes through here, not through its `.get()`/`.post()`.
 *
 * workerd closes a kept-alive connection 5 s after its last response. Playwright's client reuses
 * such connections and can write its next request onto one in the instant before it reads the
 * close; it then fails with ECONNRESET "socket hang up" for a request the server never read. That
 * failed CI once (on e801e56). Reproduced with 16 clients each sending a request 4,994-5,004 ms after
 * its last: 4-5 of 80 failed; with `maxRetries: 1`, none. Chromium resends such a request on its
 * own. `maxRetries` resends on ECONNRESET only, never on an HTTP status, so a test still sees every
 * answer the server gave. (A `Connection: close` header does not help: Playwright's client still
 * reuses the connection, and workerd keeps it.)
 */
export function send(
  api: APIRequestContext,
  url: string,
  options: NonNullable<Parameters<APIRequestContext["fetch"]>[1]> = {},
) {
  return api.fetch(url, { maxRetries: 1, ...options });
}

export function uniqueEmail(prefix = "rider") {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export function uniquePhone() {
  return `9${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
}

/** Signs up a new user through the form; the page ends on onboarding step 1. Works with JS on and off. */
export async function signUp(
  page: Page,
  { fullName = "Test Commuter", email = uniqueEmail(), password = "green-commute-2026", referralCode = "" } = {},
) {
  await page.goto("/signup");
  await page.getByLabel("Full name").fill(fullName);
  await page.getByLabel("E-mail or mobile number").fill(email);
  await page.getByLabel("Password").fill(password);
  if (referralCode) await page.getByLabel("Referral code (optional)").fill(referralCode);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await expect(page).toHaveURL(/\/onboarding/);
}

/**
 * Signs up a new user and completes onboarding, for journeys about something else: the same
 * form posts the pages send (this site's Origin, the page's own cookies), without rendering
 * the five steps in between. The forms themselves are walked by accounts.spec (every step and
 * its messages, JS on and off), a11y.spec and keyboard.spec. The page ends on the dashboard.
 */
export async function signUpAndOnboard(
  page: Page,
  {
    fullName = "Test Commuter",
    email = uniqueEmail(),
    password = "green-commute-2026",
    car = "petrol" as "petrol" | "diesel" | "hybrid" | "electric" | null,
    referralCode = "",
  } = {},
) {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const post = async (path: string, form: Record<string, string>, location: RegExp) => {
    const res = await send(page.request, path, { method: "POST", form, headers: { Origin: origin }, maxRedirects: 0 });
    expect(res.status(), `POST ${path}: ${(await res.text()).slice(0, 300)}`).toBe(302);
    expect(res.headers().location, `POST ${path} redirects`).toMatch(location);
  };
  await post("/signup", { fullName, identifier: email, password, referralCode }, /^\/onboarding/);
  await post("/onboarding?step=1", { intent: "next", step: "1", phone: uniquePhone() }, /step=2/);
  await post(
    "/onboarding?step=2",
    car ? { intent: "next", step: "2", hasCar: "yes", carType: car } : { intent: "next", step: "2", hasCar: "no" },
    /step=3/,
  );
  await post("/onboarding?step=3", { intent: "next", step: "3", referralCode: "" }, /step=4/);
  await post("/onboarding?step=4", { intent: "complete", step: "4" }, /^\/dashboard$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
  return { email, password, fullName };
}

export async function signIn(page: Page, identifier: string, password = DEMO_PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("E-mail or mobile number").fill(identifier);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

// Session cookies of users already signed in by this worker, by base URL and identifier.
const sessionCookies = new Map<string, Cookie[]>();

/**
 * Signs `page` in as a user for journeys that are not about signing in: the first time per
 * user (and worker) through the form, then by reusing that session's cookie, checked by
 * opening the dashboard (back to the form if the session has gone). The page ends on the
 * dashboard either way. Journeys about signing in use signIn() itself.
 */
export async function signInAs(page: Page, identifier: string, password = DEMO_PASSWORD) {
  const key = `${process.env.E2E_PORT ?? ""} ${identifier}`;
  const cached = sessionCookies.get(key);
  if (cached) {
    await page.context().addCookies(cached);
    await page.goto("/dashboard");
    if (!/^\/(login|onboarding)/.test(new URL(page.url()).pathname)) return;
    sessionCookies.delete(key);
  }
  await signIn(page, identifier, password);
  sessionCookies.set(
    key,
    (await page.context().cookies()).filter((c) => c.name.endsWith("lr_session")),
  );
}

/** A new browser context (the project's JavaScript setting) with a page signed in as `identifier`. */
export async function signedInPage(browser: Browser, identifier: string) {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(test.info().project.name) });
  const page = await context.newPage();
  await signInAs(page, identifier);
  return page;
}

export async function signOut(page: Page) {
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "Sign Out" }).first().click();
  await expect(page).toHaveURL(/\/$/);
}

// Browser flows shared by the accessibility and keyboard journeys. They build their own
// people and data (fresh sign-ups), so the JS and no-JS runs never touch each other's
// state or the demo users other journeys count on.

const DAY = 86_400_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A date 30-330 days ahead (IST) and a time, unlikely to collide with any other ride. */
export function uniqueSlot() {
  const d = new Date(Date.now() + 5.5 * 3600_000 + (30 + Math.floor(Math.random() * 300)) * DAY);
  const hh = String(6 + Math.floor(Math.random() * 14)).padStart(2, "0");
  const mm = String(Math.floor(Math.random() * 12) * 5).padStart(2, "0");
  return {
    date: d.toISOString().slice(0, 10),
    time: `${hh}:${mm}`,
    label: `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`,
    // What a keyboard user types into Chromium's en-US date and time fields.
    typedDate: `${d.toISOString().slice(5, 7)}${d.toISOString().slice(8, 10)}${d.toISOString().slice(0, 4)}`,
    typedTime: `${String(((Number(hh) + 11) % 12) + 1).padStart(2, "0")}${mm}${Number(hh) < 12 ? "A" : "P"}`,
  };
}

/**
 * A slot 20-27 minutes from now (IST): a ride the journey can book, accept and then
 * complete (completion opens 30 minutes before departure). `label` includes the time, so
 * a card can be told apart from the driver's other rides that day.
 */
export function soonSlot() {
  const d = new Date(Date.now() + 5.5 * 3600_000 + (20 + Math.floor(Math.random() * 8)) * 60_000);
  const iso = d.toISOString();
  const hh = Number(iso.slice(11, 13));
  const mm = iso.slice(14, 16);
  return {
    date: iso.slice(0, 10),
    time: iso.slice(11, 16),
    label: `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`,
    timeLabel: `${hh % 12 === 0 ? 12 : hh % 12}:${mm} ${hh < 12 ? "AM" : "PM"}`,
  };
}

export const unique = (prefix: string) =>
  `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export const jsEnabled = (projectName: string) => projectName === "js";

/** A second browser context (its own cookies) with the project's JavaScript setting. */
export async function newPage(browser: Browser, projectName: string) {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(projectName) });
  return context.newPage();
}

type OfferOptions = {
  from?: string;
  to?: string;
  cost?: string;
  community?: string;
  soon?: boolean;
  womenOnly?: boolean;
};

/** Offers a ride through /rides/create and returns its id. */
export async function offerRide(page: Page, options: OfferOptions = {}) {
  return (await offerRideAt(page, options)).id;
}

/** Offers a ride through /rides/create and returns its id and IST date. */
export async function offerRideAt(
  page: Page,
  {
    from = "HSR Layout",
    to = "Koramangala",
    cost = "300",
    community,
    soon = false,
    womenOnly = false,
  }: OfferOptions = {},
) {
  const slot = soon ? soonSlot() : { ...uniqueSlot(), timeLabel: "" };
  await page.goto("/rides/create");
  await page.getByLabel("Pickup location").fill(from);
  await page.getByLabel("Drop location").fill(to);
  await page.getByLabel("Date").fill(slot.date);
  await page.getByLabel("Time").fill(slot.time);
  await page.getByLabel("Available seats").selectOption("3");
  await page.getByLabel("Trip cost (₹, the whole trip)").fill(cost);
  if (community) await page.getByLabel("Share with a community (optional)").selectOption({ label: community });
  if (womenOnly) await page.getByLabel("Women only (only women can book seats)").check();
  await page.getByRole("button", { name: "Create Ride", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/rides$/);
  const cards = page
    .getByTestId("created-ride")
    .filter({ hasText: slot.label })
    .filter({ hasText: from })
    .filter({ hasText: to });
  const card = (slot.timeLabel ? cards.filter({ hasText: slot.timeLabel }) : cards).first();
  await card.getByRole("link", { name: "View ride" }).click();
  await expect(page).toHaveURL(/\/rides\/[a-z0-9]+$/);
  return { id: new URL(page.url()).pathname.split("/").pop()!, date: slot.date };
}

/** Requests one seat on a ride; returns the booking confirmation path. */
export async function requestSeat(page: Page, rideId: string) {
  await page.goto(`/rides/${rideId}/book`);
  await page.getByLabel("Seats").selectOption("1");
  await page.getByRole("button", { name: "Request Seats" }).click();
  await expect(page).toHaveURL(/\/booking-confirmation\/[a-z0-9]+$/);
  return new URL(page.url()).pathname;
}

/** Creates a community through /communities/new; returns its path. */
export async function createCommunity(page: Page, name: string) {
  await page.goto("/communities/new");
  await page.getByLabel("Community Name").fill(name);
  await page.getByLabel("Community Type").selectOption("residential");
  await page.getByLabel("Location").fill("Bellandur, Bengaluru");
  await page.getByLabel("Description").fill("Neighbours sharing rides to the Outer Ring Road tech parks.");
  await page.getByRole("button", { name: "Create Community" }).click();
  // Not /communities/new itself: the new community's own page.
  await page.waitForURL((u) => /^\/communities\/[a-z0-9]+$/.test(u.pathname) && u.pathname !== "/communities/new");
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  return new URL(page.url()).pathname;
}
