import { describe, expect, it } from "vitest";
import { shipsNoScripts } from "../../scripts/lib/initial-js.mjs";
import { get, postForm } from "../support/worker";

// ADR 0061, "A landing page without JavaScript": the visitor's landing page is its HTML and
// stylesheet only. Its links are plain anchors and the newsletter is a real form post, so a
// phone has no module to fetch, evaluate or hydrate there. Every other page keeps its scripts.

const ROUTES = import.meta.glob("../../app/routes/*.{ts,tsx}", { query: "?raw", import: "default", eager: true });

const scriptTags = (html: string) => html.match(/<script[\s>]/g)?.length ?? 0;
const preloads = (html: string) => html.match(/<link rel="modulepreload"/g)?.length ?? 0;

describe("pages without JavaScript (ADR 0061)", () => {
  it("sends the landing page without any script, module preload or Remix context", async () => {
    const res = await get("/");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(scriptTags(html)).toBe(0);
    expect(preloads(html)).toBe(0);
    expect(html).not.toContain("__remixContext");
    // The CSP is the same as on every page: still no inline script may run.
    expect(res.headers.get("Content-Security-Policy")).toMatch(/script-src 'self' 'nonce-[0-9a-f]{16,}'/);
    // The page itself is whole: its stylesheet, its links and the newsletter's real form.
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/app-[\w-]+\.css"\/>/);
    expect(html).toContain('href="/signup"');
    expect(html).toMatch(/<form method="post" action="\/\?index"[^>]*id="newsletter-form"/);
  });

  it("answers a bad newsletter address with its message on a page that has no script either", async () => {
    const res = await postForm("/?index", { email: "not-an-email" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Please enter a valid e-mail address");
    expect(scriptTags(html)).toBe(0);
  });

  it("keeps the scripts of every other page, public ones included", async () => {
    for (const path of ["/pricing", "/how-it-works", "/login"]) {
      const html = await (await get(path)).text();
      expect(preloads(html), path).toBeGreaterThan(5);
      expect(html, path).toMatch(/<script nonce="[0-9a-f]+" type="module" async="">/);
    }
  });

  it("flags the landing page's route, and only it, for the initial-JS report (0 KB)", () => {
    const flagged = Object.entries(ROUTES)
      .filter(([, source]) => shipsNoScripts(source as string))
      .map(([path]) => path.replace(/^.*\/routes\//, ""));
    expect(flagged).toEqual(["_public._index.tsx"]);
    expect(shipsNoScripts("export const handle = { crumb: 1 };\n")).toBe(false);
  });
});
