import { describe, expect, it } from "vitest";
import { createRide } from "../../db/factories";
import { db, get, signedInUser } from "../support/worker";
import { BOOT_SCRIPT_ATTRIBUTE, paintFirst } from "~/utils/paint-first.server";

// ADR 0061: a page's JavaScript is fetched only after its first paint, so on a phone's slow
// link the HTML and the stylesheet have the bandwidth to themselves. The preloads go out inert
// and the module script as text that a classic script starts after the first frame; the
// elements stay those React rendered, so hydration still matches them.

const tags = (html: string, name: string) => html.match(new RegExp(`<${name}[\\s>]`, "g"))?.length ?? 0;

function bootSource(html: string) {
  const m = /<script nonce="([^"]*)">\(function\(src\)\{([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error("no boot script in the page");
  const literal = /\}\)\(("(?:[^"\\]|\\.)*")\);$/.exec(m[2]);
  if (!literal) throw new Error("the boot script carries no module source");
  return { nonce: m[1], src: JSON.parse(literal[1]) as string };
}

describe("JavaScript after the first paint (ADR 0061)", () => {
  it("sends no module preload and no module script that the browser would fetch before painting", async () => {
    const driver = await signedInUser({ fullName: "Asha Rao" });
    const ride = await createRide({ db: db() }, { driverId: driver.id });
    const pages = [
      { path: "/" },
      { path: "/rides", cookie: driver.cookie },
      { path: `/rides/${ride.id}`, cookie: driver.cookie },
      { path: "/dashboard", cookie: driver.cookie },
    ];
    for (const page of pages) {
      const res = await get(page.path, { cookie: page.cookie });
      expect(res.status, page.path).toBe(200);
      const html = await res.text();
      expect(html, page.path).not.toContain('<link rel="modulepreload"');
      expect(html, page.path).not.toMatch(/<script[^>]* type="module"/);
      // Every module is still named, for the boot to preload once the page is painted.
      expect(html, page.path).toMatch(/<link rel="lr-modulepreload" href="\/assets\/entry\.client-[\w-]+\.js"\/>/);
      const { nonce, src } = bootSource(html);
      // The boot runs under the page's CSP nonce and hands it to the module script it starts.
      expect(nonce).toMatch(/^[0-9a-f]{16,}$/);
      expect(res.headers.get("Content-Security-Policy")).toContain(`'nonce-${nonce}'`);
      expect(src).toContain("window.__remixRouteModules");
      expect(src).toMatch(/import\("\/assets\/entry\.client-[\w-]+\.js"\);\s*$/);
    }
  });

  it("keeps every element React rendered, changing only attributes and script text", () => {
    const nonce = "abc123";
    const module = 'import "/assets/manifest-1.js";\nwindow.__remixRouteModules = {"root":route0};\nimport("/e.js");';
    const html =
      `<!DOCTYPE html><html><head><link rel="stylesheet" href="/a.css"/></head><body><main>Hi</main>` +
      `<link rel="modulepreload" href="/e.js"/><link rel="modulepreload" href="/r.js"/>` +
      `<script nonce="${nonce}">window.__remixContext = {};</script>` +
      `<script nonce="${nonce}" type="module" async="">${module}</script>` +
      `<script nonce="${nonce}">__remixContext.streamController.enqueue("</tail>");</script></body></html>`;
    const out = paintFirst(html);
    for (const name of ["script", "link", "main", "body", "head"]) expect(tags(out, name), name).toBe(tags(html, name));
    expect(out).toContain('<link rel="stylesheet" href="/a.css"/>');
    expect(out).toContain('<link rel="lr-modulepreload" href="/e.js"/><link rel="lr-modulepreload" href="/r.js"/>');
    expect(bootSource(out)).toEqual({ nonce, src: module });
    // "<" in the module text cannot close the script element early.
    expect(paintFirst(html.replace('import("/e.js")', 'import("/e.js?</script>")'))).not.toContain("?</script>");
    expect(out).toContain(`s.setAttribute("${BOOT_SCRIPT_ATTRIBUTE}","")`);
    // A page without Remix's scripts (none today) is left as it is.
    const plain = "<!DOCTYPE html><html><body><p>Plain</p></body></html>";
    expect(paintFirst(plain)).toBe(plain);
  });
});
