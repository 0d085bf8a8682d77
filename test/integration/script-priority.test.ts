import { describe, expect, it } from "vitest";
import { createRide } from "../../db/factories";
import { db, get, signedInUser } from "../support/worker";
import { lowPriorityModules } from "~/utils/script-priority.server";

// ADR 0061 ("Low-priority modules"): the page's module preloads are fetched at low priority,
// so on a phone's slow link the stylesheet the first paint waits for goes first. The scripts
// are still in the page as Remix rendered them and start as soon as they arrive.

const tags = (html: string, name: string) => html.match(new RegExp(`<${name}[\\s>]`, "g"))?.length ?? 0;

describe("module preloads at low priority (ADR 0061)", () => {
  // The landing page, the fourth measured page, sends no script at all (page-scripts.test.ts).
  it("sends every module preload of the measured pages at low priority, the scripts as before", async () => {
    const driver = await signedInUser({ fullName: "Asha Rao" });
    const ride = await createRide({ db: db() }, { driverId: driver.id });
    const pages = [
      { path: "/rides", cookie: driver.cookie },
      { path: `/rides/${ride.id}`, cookie: driver.cookie },
      { path: "/dashboard", cookie: driver.cookie },
    ];
    for (const page of pages) {
      const res = await get(page.path, { cookie: page.cookie });
      expect(res.status, page.path).toBe(200);
      const html = await res.text();
      const preloads = html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
      expect(preloads.length, page.path).toBeGreaterThan(5);
      for (const link of preloads) expect(link, page.path).toMatch(/^<link rel="modulepreload" fetchpriority="low" /);
      expect(html, page.path).toMatch(/<link rel="modulepreload" fetchpriority="low" href="\/assets\/entry\.client-/);
      // Not deferred: Remix's module script is in the page and starts the modules itself.
      expect(html, page.path).toMatch(/<script nonce="[0-9a-f]+" type="module" async="">/);
    }
  });

  it("changes one attribute of the preload links and nothing else", () => {
    const html =
      `<!DOCTYPE html><html><head><link rel="stylesheet" href="/a.css"/></head><body><main>Hi</main>` +
      `<a href="/x">x</a><link rel="modulepreload" href="/e.js"/><link rel="modulepreload" href="/r.js"/>` +
      `<script type="module" async="">import "/e.js";</script></body></html>`;
    const out = lowPriorityModules(html);
    for (const name of ["script", "link", "main", "a"]) expect(tags(out, name), name).toBe(tags(html, name));
    expect(out).toContain(
      '<link rel="modulepreload" fetchpriority="low" href="/e.js"/><link rel="modulepreload" fetchpriority="low" href="/r.js"/>',
    );
    expect(out.replaceAll(' fetchpriority="low"', "")).toBe(html);
    // Text that merely mentions a preload is left alone (React escapes "<" in text).
    const text = "<p>&lt;link rel=&quot;modulepreload&quot; href=</p>";
    expect(lowPriorityModules(text)).toBe(text);
  });
});
