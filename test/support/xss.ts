import {
  expect,
  request as apiRequest,
  test,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from "@playwright/test";
import { XSS_MARKER, XSS_PAYLOADS } from "../e2e/fixtures/xss-payloads";
import { send, uniqueEmail, uniquePhone } from "./e2e";

// Stored-XSS journeys (test/e2e/xss.spec.ts, member-fields-xss.spec.ts): storing payloads through
// the real forms, and rendering and watching the pages that show them.

export const PASSWORD = "green-commute-2026";
export const SEP = " | ";
export const TAG = `xs${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 5)}`;

/** A payload with a line break or tab: refused by single-line fields (app/schemas/text.ts isCleanLine), tried in the others. */
const MULTI_LINE = /[\t\n\r\u0085\u2028\u2029]/;
const usable = (line: boolean) => XSS_PAYLOADS.filter((p) => !line || !MULTI_LINE.test(p));

/**
 * Payloads packed (first fit, longest first) into values of at most `max` characters after `prefix`: every payload that
 * fits; for a single-line field (`line`), every one without a line break.
 */
export function packs(max: number, prefix = "", { line = false } = {}): string[][] {
  const out: Array<{ items: string[]; len: number }> = [];
  for (const p of [...usable(line)].sort((x, y) => y.length - x.length)) {
    if (prefix.length + p.length > max) continue;
    const bin = out.find((b) => b.len + SEP.length + p.length <= max);
    if (bin) {
      bin.items.push(p);
      bin.len += SEP.length + p.length;
    } else out.push({ items: [p], len: prefix.length + p.length });
  }
  return out.map((b) => b.items);
}
export const join = (ps: string[], prefix = "") => prefix + ps.join(SEP);
export const fitting = (max: number, prefix = "", { line = false } = {}) =>
  usable(line).filter((p) => prefix.length + p.length <= max);

export const isJs = () => test.info().project.name === "js";
export const baseURL = () => test.info().project.use.baseURL!;

// ---------------------------------------------------------------------------------------
// Storing: the real form posts, over HTTP.

export type User = { api: APIRequestContext; email: string; fullName: string };

export async function post(api: APIRequestContext, path: string, form: Record<string, string>) {
  const res = await send(api, path, { method: "POST", form, maxRedirects: 0 });
  expect(
    res.status(),
    `POST ${path} ${JSON.stringify(form).slice(0, 200)} -> ${res.status()}: ${(await res.text()).slice(0, 300)}`,
  ).toBe(302);
  return res;
}

export async function signUp(fullName: string): Promise<User> {
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

export async function inParallel<T, R>(items: T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
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

export type Watched = { page: Page; context: BrowserContext; dialogs: string[]; csp: string[] };

export async function browse(browser: Browser, user: User): Promise<Watched> {
  const context = await browser.newContext({
    baseURL: baseURL(),
    javaScriptEnabled: isJs(),
    storageState: await user.api.storageState(),
  });
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

/**
 * The watched context becomes `user`'s: their cookies only, and nothing recorded for the one
 * before (that one's checks have run). The page cache stays, which is the point: a context per
 * user loads and compiles the app's scripts again for each.
 */
export async function signInAs(w: Watched, user: User) {
  await w.context.clearCookies();
  await w.context.addCookies((await user.api.storageState()).cookies);
  w.dialogs.length = 0;
  w.csp.length = 0;
}

// Anything a payload could have turned into markup: event-handler attributes, script-capable
// elements, javascript:/data: URLs. The app renders none of these itself.
export const INJECTED = [
  "[onerror]",
  "[onload]",
  "[onmouseover]",
  "[onfocus]",
  "[ontoggle]",
  "[onbegin]",
  "[onstart]",
  "[onpointerover]",
  "[formaction]",
  "iframe",
  "object",
  "embed",
  "frameset",
  "frame",
  "isindex",
  "keygen",
  "marquee",
  "xmp",
  "math",
  "svg animate",
  "base[href*='xss']",
  "meta[http-equiv]",
  "link[href^='javascript' i]",
  "[src^='javascript' i]",
  "[href^='javascript' i]",
  "[href^='data:' i]",
  "[src^='data:text' i]",
  "[background]",
  "[dynsrc]",
  "script[src*='xss']",
  "a.XSS",
  "img[src='x']",
  "img[src='/']",
  "img[src='1']",
].join(",");

/**
 * Loads `path` and checks no payload ran: no dialog, no marker, no injected element, every
 * expected payload present as text (or as a form field's value), and the raw HTML never
 * contains a markup-bearing payload verbatim (React escapes < as &lt;, JSON as \u003c).
 */
export async function expectInert(w: Watched, user: User, path: string, expected: string[]) {
  const res = await w.page.goto(path);
  expect(res?.status(), path).toBe(200);
  // With JS, the page's client render has run (the payloads had their chance) once hydrated.
  if (isJs()) await w.page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const seen = await w.page.evaluate((selector) => {
    const body = document.body.cloneNode(true) as HTMLElement;
    body.querySelectorAll("script").forEach((s) => s.remove());
    const values = [...document.querySelectorAll("input, textarea")].map((e) => (e as HTMLInputElement).value);
    return {
      text: `${body.textContent}\n${values.join("\n")}`,
      injected: [...document.querySelectorAll(selector)].map((e) => e.outerHTML.slice(0, 120)),
    };
  }, INJECTED);
  expect(seen.injected, `elements injected on ${path}`).toEqual([]);
  const missing = expected.filter((p) => !seen.text.includes(p));
  expect(missing, `payloads not shown as text on ${path}`).toEqual([]);
  if (isJs()) {
    expect(
      await w.page.evaluate((m) => (window as unknown as Record<string, unknown>)[m], XSS_MARKER),
      `window.${XSS_MARKER} on ${path}`,
    ).toBeUndefined();
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
export function recordCsp(w: Watched) {
  const unique = [...new Set(w.csp)];
  test.info().annotations.push({
    type: "csp-violations",
    description: unique.length ? unique.join("\n").slice(0, 2000) : "none",
  });
  expect(unique.filter((v) => v.includes(XSS_MARKER))).toEqual([]);
}
