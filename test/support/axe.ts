import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import type axeCore from "axe-core";
import type { Result } from "axe-core";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

// The WCAG 2.0/2.1 A and AA rules plus axe's best practices (issue 9, item 10).
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
// With `colourOnly`, only the rules whose outcome depends on colours run (for a page already
// scanned in full in the other colour scheme: same markup, other colours).
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"];
type ScanOptions = { colourOnly?: boolean };

// The minified build (654 KB) rather than `axeCore.source` (the 1.5 MB readable build): the same
// axe, less to send and parse per document.
const AXE_MIN = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * axe-core's own `axe.run` on the page's document, axe sent once per document. (@axe-core/
 * playwright's `analyze()` sent axe three times per scan and opened a tab to merge per-frame
 * results, a third of the a11y journeys' time: ADR 0032.) Our pages have no frames, which
 * `axe.run` alone would not look inside, so a frame fails the scan rather than going unchecked.
 * Only violations are read, so axe builds full results for nothing else: the same rules run on
 * the same nodes.
 */
async function runAxe(page: Page, { colourOnly = false }: ScanOptions): Promise<Result[]> {
  expect(
    page.frames(),
    `${page.url()}: axe scans pages without frames; scan a framed page inside its frames`,
  ).toHaveLength(1);
  const runOnly = colourOnly
    ? { type: "rule" as const, values: COLOUR_RULES }
    : { type: "tag" as const, values: AXE_TAGS };
  if (!(await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === "function")))
    await page.evaluate(AXE_MIN);
  return page.evaluate(
    (runOnly) =>
      (window as unknown as { axe: typeof axeCore }).axe
        .run(document, { runOnly, resultTypes: ["violations"] })
        .then((r) => r.violations),
    runOnly,
  );
}

export type AxeFinding = { page: string; id: string; impact: string; help: string; targets: string[]; summary: string };

/**
 * axe-core is itself a script, and a page without JavaScript (the no-js project) cannot run it.
 * So the no-JS page's own document, exactly as the server sent and the browser rendered it
 * (minus its <script> elements, which never ran), is served to a scanner page at the same URL
 * in a context that allows scripts, with the same viewport and colour scheme; the stylesheets
 * and images load from the real server. axe runs there.
 */
type Scanner = { page: Page; doc: { url: string; html: string } };
// One scanner page per browser context under test, reused for every scan of that context.
const scanners = new WeakMap<BrowserContext, Scanner>();
const scannerContexts = new Set<BrowserContext>();

/**
 * Closes every scanner context, awaited. Call after each test: a context left to close
 * itself during fixture teardown left the worker's browser closed for the next test.
 */
export async function closeScanners() {
  const all = [...scannerContexts];
  scannerContexts.clear();
  await Promise.all(all.map((c) => c.close().catch(() => undefined)));
}

async function scannerFor(page: Page): Promise<Scanner> {
  const existing = scanners.get(page.context());
  if (existing) return existing;
  const context = await page.context().browser()!.newContext({ javaScriptEnabled: true });
  scannerContexts.add(context);
  const scanner: Scanner = { page: await context.newPage(), doc: { url: "", html: "" } };
  // Only the document is replaced; no app script may load in the scanner.
  await scanner.page.route("**/*.js", (route) => route.abort());
  await scanner.page.route(
    (u) => u.href.split("#")[0] === scanner.doc.url,
    (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: scanner.doc.html }),
  );
  scanners.set(page.context(), scanner);
  return scanner;
}

/** Loads the no-JS page's own document into its scanner page (see Scanner) and returns that page. */
async function scannerCopyOf(page: Page): Promise<Page> {
  const scanner = await scannerFor(page);
  scanner.doc.url = page.url().split("#")[0];
  scanner.doc.html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  const dark = await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches);
  await scanner.page.setViewportSize(page.viewportSize()!);
  await scanner.page.emulateMedia({ colorScheme: dark ? "dark" : "light" });
  await scanner.page.goto(scanner.doc.url);
  expect(await pageScriptsRan(scanner.page), "the scanner copy runs no app script").toBe(false);
  return scanner.page;
}

/** Whether the page's own scripts ran (Remix's inline context script sets this global). */
export async function pageScriptsRan(page: Page) {
  return page.evaluate(() => "__remixContext" in window);
}

/**
 * The document axe scans for the page as the project renders it: the page itself, hydrated,
 * with JS; without JS, a copy of its server HTML in a scanner page.
 */
async function scanTarget(page: Page, label: string): Promise<Page> {
  await page.waitForLoadState("load");
  const noJs = test.info().project.use.javaScriptEnabled === false;
  // A page sent without JavaScript (the landing page, ADR 0061) has no script to run.
  const sent = await page.evaluate(() => document.querySelector("script") !== null);
  expect(await pageScriptsRan(page), `${label}: page scripts ran`).toBe(!noJs && sent);
  return noJs ? scannerCopyOf(page) : page;
}

function serious(violations: Result[], label: string): AxeFinding[] {
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      page: label,
      id: v.id,
      impact: v.impact ?? "",
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
      summary: v.nodes
        .slice(0, 3)
        .map((n) => n.failureSummary?.replace(/\s+/g, " ").trim())
        .join(" | "),
    }));
}

/**
 * Runs axe-core on the page as it is now and returns the serious and critical violations,
 * one entry per rule, with the CSS targets and axe's failure summary so that a failing test
 * says exactly what to fix and where.
 */
export async function seriousViolations(page: Page, label: string, options: ScanOptions = {}): Promise<AxeFinding[]> {
  return serious(await runAxe(await scanTarget(page, label), options), label);
}

/**
 * How a page turns dark:
 * - "setting": a member's dark mode setting. The server renders the same page with
 *   `<html class="dark">` and `<meta name="color-scheme" content="dark">`, and with nothing else
 *   changed (onboarding-profile.test.ts checks that), except the Settings page's own Dark mode
 *   switch (a11y.spec.ts scans that page with the setting really on as well).
 * - "preference": a visitor's system prefers dark colours; the same document under that media
 *   preference (the server cannot see it).
 */
export type DarkBy = "setting" | "preference";

async function turnDark(target: Page, by: DarkBy, dark: boolean) {
  if (by === "preference") return target.emulateMedia({ colorScheme: dark ? "dark" : "light" });
  const bodyColour = () => target.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const before = await bodyColour();
  await target.evaluate(async (dark) => {
    document.documentElement.classList.toggle("dark", dark);
    document.querySelector('meta[name="color-scheme"]')!.setAttribute("content", dark ? "dark" : "light");
    // An element with a colour transition would be scanned in its colours half-way.
    await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)));
  }, dark);
  // The recolouring took: the page's background changed with it.
  expect(await bodyColour(), `${target.url()}: the page's background changes with dark mode`).not.toBe(before);
}

/** The serious and critical violations in light and then in dark, as expectAccessibleLightAndDark scans. */
export async function lightAndDarkViolations(page: Page, label: string, by: DarkBy = "setting"): Promise<AxeFinding[]> {
  const target = await scanTarget(page, `light ${label}`);
  const findings = serious(await runAxe(target, {}), `light ${label}`);
  await turnDark(target, by, true);
  findings.push(...serious(await runAxe(target, { colourOnly: true }), `dark ${label}`));
  await turnDark(target, by, false);
  return findings;
}

/**
 * One load of a page, both colour schemes (issue 17: one check per thing): every rule on the
 * page in light colours, then, on the same document turned dark (see DarkBy), the rules whose
 * outcome depends on colours (the markup is the one the light scan checked). The page is left
 * light. Soft assertions, as expectAccessible.
 */
export async function expectAccessibleLightAndDark(page: Page, label: string, by: DarkBy = "setting") {
  const findings = await lightAndDarkViolations(page, label, by);
  expect.soft(findings.length, `axe found serious/critical violations:\n${formatFindings(findings)}`).toBe(0);
  return findings;
}

export function formatFindings(findings: AxeFinding[]) {
  return findings
    .map(
      (f) =>
        `[${f.page}] ${f.id} (${f.impact}): ${f.help}\n    targets: ${f.targets.slice(0, 6).join(", ")}${f.targets.length > 6 ? ` (+${f.targets.length - 6} more)` : ""}\n    ${f.summary}`,
    )
    .join("\n");
}

/** Asserts zero serious or critical violations on the current page (soft: every page of a run is reported). */
export async function expectAccessible(page: Page, label: string, options: ScanOptions = {}) {
  const findings = await seriousViolations(page, label, options);
  expect.soft(findings.length, `axe found serious/critical violations:\n${formatFindings(findings)}`).toBe(0);
  return findings;
}
