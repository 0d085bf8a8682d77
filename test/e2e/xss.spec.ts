import { expect, request as apiRequest, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { XSS_MARKER, XSS_PAYLOADS } from "./fixtures/xss-payloads";
import { send, uniqueEmail, uniquePhone } from "../support/e2e";

// Stored XSS (issue 9, item 4). Every payload in fixtures/xss-payloads.ts is stored through
// the real forms (HTTP POSTs with this site's Origin, as the browser sends them) in every
// text field a user can write, then every page that shows it is rendered in Chromium, with
// JavaScript on and off (the two projects), and chat payloads also arrive live over the
// WebSocket. A payload "ran" if a dialog opened, window.__xss was set, or an element or
// attribute it tried to inject exists in the DOM; it must show as the same text it was.
// CSP violations are recorded (a CSP-blocked payload did not run, but its markup got in).
//
// js and no-js run at the same time on one database: each project signs up its own users,
// and every record carries a per-run tag so each project only looks at its own rows. The tests
// do not depend on each other (each worker signs up its own driver and rider), so they spread
// over both workers: as one serial chain they ran last, alone, while the other worker idled.

const PASSWORD = "green-commute-2026";
const SEP = " | ";
const TAG = `xs${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 5)}`;

/** Payloads packed (first fit, longest first) into values of at most `max` characters after `prefix`: every payload that fits. */
function packs(max: number, prefix = ""): string[][] {
  const out: Array<{ items: string[]; len: number }> = [];
  for (const p of [...XSS_PAYLOADS].sort((x, y) => y.length - x.length)) {
    if (prefix.length + p.length > max) continue;
    const bin = out.find((b) => b.len + SEP.length + p.length <= max);
    if (bin) {
      bin.items.push(p);
      bin.len += SEP.length + p.length;
    } else out.push({ items: [p], len: prefix.length + p.length });
  }
  return out.map((b) => b.items);
}
const join = (ps: string[], prefix = "") => prefix + ps.join(SEP);
const fitting = (max: number, prefix = "") => XSS_PAYLOADS.filter((p) => prefix.length + p.length <= max);

const isJs = () => test.info().project.name === "js";
const baseURL = () => test.info().project.use.baseURL!;

// ---------------------------------------------------------------------------------------
// Storing: the real form posts, over HTTP.

type User = { api: APIRequestContext; email: string; fullName: string };

async function post(api: APIRequestContext, path: string, form: Record<string, string>) {
  const res = await send(api, path, { method: "POST", form, maxRedirects: 0 });
  expect(res.status(), `POST ${path} ${JSON.stringify(form).slice(0, 200)} -> ${res.status()}: ${(await res.text()).slice(0, 300)}`).toBe(302);
  return res;
}

async function signUp(fullName: string): Promise<User> {
  const api = await apiRequest.newContext({ baseURL: baseURL(), extraHTTPHeaders: { Origin: baseURL() } });
  const email = uniqueEmail(TAG);
  await post(api, "/signup", { fullName, identifier: email, password: PASSWORD });
  await post(api, "/onboarding?step=1", { intent: "next", step: "1", phone: uniquePhone() });
  await post(api, "/onboarding?step=2", { intent: "next", step: "2", hasCar: "yes", carType: "petrol" });
  await post(api, "/onboarding?step=3", { intent: "next", step: "3", referralCode: "" });
  const done = await post(api, "/onboarding?step=4", { intent: "complete", step: "4" });
  expect(done.headers().location).toBe("/dashboard");
  return { api, email, fullName };
}

async function inParallel<T, R>(items: T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

// ---------------------------------------------------------------------------------------
// Rendering and watching.

type Watched = { page: Page; context: BrowserContext; dialogs: string[]; csp: string[] };

async function browse(browser: Browser, user: User): Promise<Watched> {
  const context = await browser.newContext({ baseURL: baseURL(), javaScriptEnabled: isJs(), storageState: await user.api.storageState() });
  const page = await context.newPage();
  const dialogs: string[] = [];
  const csp: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss().catch(() => {});
  });
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply|frame)/i.test(m.text())) csp.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const w = window as unknown as { __csp?: string[] };
      (w.__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
    });
  });
  return { page, context, dialogs, csp };
}

// Anything a payload could have turned into markup: event-handler attributes, script-capable
// elements, javascript:/data: URLs. The app renders none of these itself.
const INJECTED = [
  "[onerror]", "[onload]", "[onmouseover]", "[onfocus]", "[ontoggle]", "[onbegin]", "[onstart]", "[onpointerover]", "[formaction]",
  "iframe", "object", "embed", "frameset", "frame", "isindex", "keygen", "marquee", "xmp", "math", "svg animate", "base[href*='xss']",
  "meta[http-equiv]", "link[href^='javascript' i]", "[src^='javascript' i]", "[href^='javascript' i]", "[href^='data:' i]", "[src^='data:text' i]",
  "[background]", "[dynsrc]", "script[src*='xss']", "a.XSS", "img[src='x']", "img[src='/']", "img[src='1']",
].join(",");

/**
 * Loads `path` and checks no payload ran: no dialog, no marker, no injected element, every
 * expected payload present as text (or as a form field's value), and the raw HTML never
 * contains a markup-bearing payload verbatim (React escapes < as &lt;, JSON as \u003c).
 */
async function expectInert(w: Watched, user: User, path: string, expected: string[]) {
  const res = await w.page.goto(path);
  expect(res?.status(), path).toBe(200);
  // With JS, the page's client render has run (the payloads had their chance) once hydrated.
  if (isJs()) await w.page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const seen = await w.page.evaluate((selector) => {
    const body = document.body.cloneNode(true) as HTMLElement;
    body.querySelectorAll("script").forEach((s) => s.remove());
    const values = [...document.querySelectorAll("input, textarea")].map((e) => (e as HTMLInputElement).value);
    return { text: `${body.textContent}\n${values.join("\n")}`, injected: [...document.querySelectorAll(selector)].map((e) => e.outerHTML.slice(0, 120)) };
  }, INJECTED);
  expect(seen.injected, `elements injected on ${path}`).toEqual([]);
  const missing = expected.filter((p) => !seen.text.includes(p));
  expect(missing, `payloads not shown as text on ${path}`).toEqual([]);
  if (isJs()) {
    expect(await w.page.evaluate((m) => (window as unknown as Record<string, unknown>)[m], XSS_MARKER), `window.${XSS_MARKER} on ${path}`).toBeUndefined();
    const violations = await w.page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
    w.csp.push(...violations);
  }
  expect(w.dialogs, `dialogs on ${path}`).toEqual([]);
  const html = await (await send(user.api, path)).text();
  const verbatim = XSS_PAYLOADS.filter((p) => p.includes("<") && html.includes(p));
  expect(verbatim, `payloads verbatim (unescaped) in the HTML of ${path}`).toEqual([]);
  return seen.text;
}

/** CSP reports are recorded on the test (a blocked payload did not run); none may name our marker. */
function recordCsp(w: Watched) {
  const unique = [...new Set(w.csp)];
  test.info().annotations.push({ type: "csp-violations", description: unique.length ? unique.join("\n").slice(0, 2000) : "none" });
  expect(unique.filter((v) => v.includes(XSS_MARKER))).toEqual([]);
}

// ---------------------------------------------------------------------------------------

let driver: User;
let rider: User;

test.beforeAll(async () => {
  driver = await signUp(`Driver ${TAG}`);
  rider = await signUp(`Rider ${TAG}`);
});

test.afterAll(async () => {
  await driver?.api.dispose();
  await rider?.api.dispose();
});

// The longest test of the file first: the file runs last in each project, and a long test
// started last left the other worker idle until it ended.
test("members' names, areas and workplaces render as text for the moderator; their own profile, emergency contact and vehicle pages too", async ({ browser }) => {
  test.setTimeout(300_000);
  const fields = {
    fullName: packs(100),
    residentialArea: packs(100),
    workplace: packs(100),
    bio: packs(500),
    emergencyContact: packs(120),
    make: packs(40),
    model: packs(40),
    color: packs(30),
    licensePlate: packs(15),
    insuranceInfo: packs(120),
  };
  // One member per full-name pack; the short vehicle fields (15 to 40 characters) get as
  // many packs as there are members, so they carry most but not all payloads (recorded).
  const helpers = fields.fullName.length;
  for (const [k, v] of Object.entries(fields)) {
    const stored = v.slice(0, helpers).flat().length;
    test.info().annotations.push({ type: "payloads-per-field", description: `${k}: ${stored} of ${XSS_PAYLOADS.length}` });
  }
  const res = await post(driver.api, "/communities/new", { name: `${TAG} moderation`, type: "residential", location: "HSR Layout", description: "Members with hostile names." });
  const communityPath = res.headers().location!;
  const users = await inParallel([...Array(helpers).keys()], 4, async (i) => {
    const pick = (k: keyof typeof fields, fallback = "") => (fields[k][i] ? join(fields[k][i]) : fallback);
    const user = await signUp(pick("fullName", `Member ${i} ${TAG}`));
    await post(user.api, "/dashboard/profile", {
      fullName: user.fullName,
      residentialArea: pick("residentialArea"),
      workplace: pick("workplace"),
      bio: pick("bio"),
      upiId: "",
    });
    await post(user.api, "/profile-completion?step=2", { step: "2", phoneNumber: uniquePhone().replace(/^\d/, "9"), emergencyContact: pick("emergencyContact", "Meera, 9876501234") });
    await post(user.api, "/profile-completion?step=3", {
      step: "3",
      make: pick("make"),
      model: pick("model"),
      year: "2019",
      color: pick("color"),
      licensePlate: pick("licensePlate"),
      insuranceInfo: pick("insuranceInfo"),
    });
    await post(user.api, communityPath, { intent: "join" });
    return user;
  });
  // The moderator sees every pending member's name, area and workplace, across the pages of
  // join requests (ADR 0025: "More requests" links).
  const mod = await browse(browser, driver);
  let path: string | null = `${communityPath}?tab=moderation`;
  let seenText = "";
  for (let pageNo = 0; path && pageNo < 10; pageNo++) {
    seenText += await expectInert(mod, driver, path, []);
    const next: string | null = (await mod.page.getByTestId("more-pending").count()) ? await mod.page.getByTestId("more-pending").getAttribute("href") : null;
    path = next ? (next.startsWith("?") ? `${communityPath}${next}` : next) : null;
  }
  const notShown = [...fields.fullName.flat(), ...fields.residentialArea.flat(), ...fields.workplace.flat()].filter((p) => !seenText.includes(p));
  expect(notShown, "payloads not shown as text on the moderation pages").toEqual([]);
  recordCsp(mod);
  await mod.context.close();
  // Each member's own pages: the profile form, the contact details and vehicle steps.
  await inParallel(users, 2, async (user, i) => {
    const own = (k: keyof typeof fields) => fields[k][i] ?? [];
    const w = await browse(browser, user);
    // Names, areas and workplaces as text were checked above; as form values (an attribute
    // context) every payload is checked through the contact and vehicle steps, so the profile
    // form is loaded for the members who carry bio payloads.
    if (own("bio").length) await expectInert(w, user, "/dashboard/profile", [...own("fullName"), ...own("residentialArea"), ...own("workplace"), ...own("bio")]);
    await expectInert(w, user, "/profile-completion?step=2", own("emergencyContact"));
    await expectInert(w, user, "/profile-completion?step=3", [...own("make"), ...own("model"), ...own("color"), ...own("licensePlate"), ...own("insuranceInfo")]);
    recordCsp(w);
    await w.context.close();
    await user.api.dispose();
  });
  for (const [k, max] of Object.entries({ fullName: 100, residentialArea: 100, workplace: 100, bio: 500, emergencyContact: 120, insuranceInfo: 120 })) {
    expect(new Set(fields[k as keyof typeof fields].slice(0, helpers).flat()), k).toEqual(new Set(fitting(max)));
  }
});

test("community names, locations and descriptions render as text in the list and on the page", async ({ browser }) => {
  test.setTimeout(180_000);
  const namePrefix = `${TAG} `;
  const names = packs(80, namePrefix);
  const locations = packs(120);
  const descriptions = packs(1000);
  const count = Math.max(names.length, locations.length, descriptions.length);
  const ids = await inParallel([...Array(count).keys()], 4, async (i) => {
    const res = await post(driver.api, "/communities/new", {
      name: names[i] ? join(names[i], namePrefix) : `${TAG} plain ${i}`,
      type: "interest",
      location: locations[i] ? join(locations[i]) : "Koramangala, Bengaluru",
      description: descriptions[i] ? join(descriptions[i]) : "Neighbours sharing the commute.",
    });
    return res.headers().location!.split("/").pop()!;
  });
  const w = await browse(browser, driver);
  // The list, searched for this run's tag: 24 a page, newest first; together the pages show every one.
  let listed = "";
  for (let p = 1; p <= Math.ceil(count / 24); p++) listed += await expectInert(w, driver, `/communities?q=${TAG}${p > 1 ? `&page=${p}` : ""}`, []);
  const notListed = [...names.flat(), ...locations.flat(), ...descriptions.flat()].filter((p) => !listed.includes(p));
  expect(notListed, "payloads missing from the community list").toEqual([]);
  // Each community page with its description (and the others' names and locations).
  for (let i = 0; i < descriptions.length; i++) {
    await expectInert(w, driver, `/communities/${ids[i]}`, [...descriptions[i], ...(names[i] ?? []), ...(locations[i] ?? [])]);
  }
  expect(new Set(names.flat())).toEqual(new Set(fitting(80, namePrefix)));
  expect(descriptions.flat()).toHaveLength(XSS_PAYLOADS.length);
  recordCsp(w);
  await w.context.close();
});

test("ride notes and ride request notes render as text for the driver and the rider", async ({ browser }) => {
  test.setTimeout(180_000);
  const notes = packs(500 - `${TAG}#00# `.length);
  // Each ride's notes start with this run's tag and the ride's number, to find it again.
  const noteOf = (i: number) => join(notes[i], `${TAG}#${i}# `);
  const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  for (let i = 0; i < notes.length; i++) {
    await post(driver.api, "/rides/create", {
      intent: "create",
      fromLocation: "HSR Layout",
      toLocation: "Manyata Tech Park",
      date,
      time: `${String(6 + i).padStart(2, "0")}:30`,
      seats: "3",
      tripCost: "250",
      notes: noteOf(i),
    });
  }
  const rideIds: string[] = new Array(notes.length);
  for (const { id, page } of await driversRides()) {
    const i = Number(new RegExp(`${TAG}#(\\d+)#`).exec(page)?.[1] ?? -1);
    if (i >= 0) rideIds[i] = id;
  }
  expect(rideIds.filter(Boolean), "every ride found on My Rides").toHaveLength(notes.length);
  expect(await driverIdOn(rideIds[0]), "the ride page offers to contact the driver").toBeTruthy();
  // The rider requests a seat on each, with a note: ride i carries request notes[i + 1].
  const requestNote = (i: number) => notes[(i + 1) % notes.length];
  const bookings: string[] = [];
  for (const [i, id] of rideIds.entries()) {
    const res = await post(rider.api, `/rides/${id}/book`, { seats: "1", notes: join(requestNote(i)) });
    bookings.push(res.headers().location!);
  }
  const r = await browse(browser, rider);
  for (const [i, id] of rideIds.entries()) {
    await expectInert(r, rider, `/rides/${id}`, [...notes[i], driver.fullName]);
    await expectInert(r, rider, bookings[i], requestNote(i));
  }
  recordCsp(r);
  await r.context.close();
  const d = await browse(browser, driver);
  for (const [i, id] of rideIds.entries()) await expectInert(d, driver, `/rides/${id}`, [...notes[i], ...requestNote(i), rider.fullName]);
  await expectInert(d, driver, "/dashboard/rides?tab=manage", notes.flat());
  recordCsp(d);
  await d.context.close();
  expect(new Set(notes.flat())).toEqual(new Set(XSS_PAYLOADS));
});

/** The rides on the driver's My Rides, each with its page as the rider sees it. */
async function driversRides() {
  const mine = await (await send(driver.api, "/dashboard/rides?tab=created")).text();
  const ids = [...new Set([...mine.matchAll(/href="\/rides\/([a-z0-9]+)"/g)].map((m) => m[1]))];
  return Promise.all(ids.map(async (id) => ({ id, page: await (await send(rider.api, `/rides/${id}`)).text() })));
}

/** The driver's id, from the rider's view of one of the driver's rides ("Contact Driver"). */
async function driverIdOn(rideId: string) {
  return /\/dashboard\/messages\?to=([a-z0-9]+)/.exec(await (await send(rider.api, `/rides/${rideId}`)).text())?.[1] ?? "";
}

test("chat messages render as text when loaded and when they arrive live over the WebSocket", async ({ browser }) => {
  test.setTimeout(180_000);
  // A ride of the driver's with the rider's pending request on it lets the two write to each other.
  const date = new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10);
  await post(driver.api, "/rides/create", { intent: "create", fromLocation: "Koramangala", toLocation: "MG Road", date, time: "09:15", seats: "2", tripCost: "120", notes: `${TAG} chat ride` });
  const rideId = (await driversRides()).find((r) => r.page.includes(`${TAG} chat ride`))?.id ?? "";
  expect(rideId, "the chat ride found on My Rides").toBeTruthy();
  await post(rider.api, `/rides/${rideId}/book`, { seats: "1", notes: "" });
  const driverId = await driverIdOn(rideId);
  expect(driverId, "the ride page offers to contact the driver").toBeTruthy();
  const chunks = packs(2000);
  let chat = "";
  for (const c of chunks) {
    const res = await post(rider.api, `/dashboard/messages?to=${driverId}`, { intent: "send", to: driverId, content: join(c) });
    chat = res.headers().location!;
  }
  const d = await browse(browser, driver);
  await expectInert(d, driver, "/dashboard/messages", [rider.fullName]);
  await expectInert(d, driver, chat, [...chunks.flat(), rider.fullName]);
  if (isJs()) {
    // Live: the driver's chat is open; every payload arrives over the WebSocket, a few per
    // message (the chat shows the latest 50 messages).
    await expect(d.page.getByTestId("live-room")).toHaveAttribute("data-connected", "true");
    const live = packs(300, `${TAG} `);
    for (const [i, c] of live.entries()) await post(rider.api, `/dashboard/messages?to=${driverId}`, { intent: "send", to: driverId, content: join(c, `${TAG}#${i} `) });
    await expect(d.page.getByTestId("message").last()).toContainText(`${TAG}#${live.length - 1} `);
    const text = await d.page.getByTestId("chat-messages").evaluate((el) => el.textContent ?? "");
    const missing = XSS_PAYLOADS.filter((p) => !text.includes(p));
    expect(missing, "payloads that arrived live but are not shown as text").toEqual([]);
    expect(await d.page.evaluate((m) => (window as unknown as Record<string, unknown>)[m], XSS_MARKER)).toBeUndefined();
    expect(await d.page.evaluate((sel) => [...document.querySelectorAll(sel)].map((e) => e.outerHTML.slice(0, 120)), INJECTED)).toEqual([]);
    expect(d.dialogs).toEqual([]);
  }
  recordCsp(d);
  await d.context.close();
});

test("every HTML response carries a per-request CSP nonce, nosniff, a referrer policy and frame-ancestors 'none'", async () => {
  const paths = ["/", "/login", "/signup", "/pricing", "/rides", "/communities", "/dashboard", "/dashboard/messages", "/dashboard/profile", "/no-such-page"];
  const nonces = new Set<string>();
  for (const path of paths) {
    for (let i = 0; i < 2; i++) {
      const res = await send(driver.api, path);
      const h = res.headers();
      expect(h["content-type"], path).toContain("text/html");
      const csp = h["content-security-policy"] ?? "";
      const nonce = /script-src [^;]*'nonce-([A-Za-z0-9+/=_-]{16,})'/.exec(csp)?.[1];
      expect(nonce, `${path} CSP: ${csp}`).toBeTruthy();
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain("'unsafe-inline' 'nonce"); // scripts: nonce only
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(h["x-content-type-options"]).toBe("nosniff");
      expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(h["strict-transport-security"], "no HSTS over plain http").toBeUndefined();
      // Every inline script carries this response's nonce; no other script runs.
      const body = await res.text();
      for (const tag of body.match(/<script\b[^>]*>/g) ?? []) expect(tag, path).toContain(`nonce="${nonce}"`);
      expect(nonces.has(nonce!), `nonce reused on ${path}`).toBe(false);
      nonces.add(nonce!);
    }
  }
});
