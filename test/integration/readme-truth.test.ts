// Issue 39, item 7: the README is what a newcomer reads first, so what it tells them to run,
// open or set must exist, and it must stay short enough to read in five minutes (the lab
// notebook it replaced had grown to 486 lines; measurements live in docs/PERFORMANCE.md).
import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD, DEMO_USERS } from "../../db/seed";
import pkg from "../../package.json";

// Vite names a globbed file relative to this one: back to a path from the repository root.
const fromRoot = (k: string) =>
  k.startsWith("../../") ? k.slice(6) : k.startsWith("../") ? `test/${k.slice(3)}` : `test/integration/${k.slice(2)}`;
const raw = (files: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(files).map(([k, v]) => [fromRoot(k), v as string]));

const DOCS = raw(
  import.meta.glob(["../../README.md", "../../docs/*.md"], { query: "?raw", import: "default", eager: true }),
);
// Keys only (never imported): which files the docs may point to.
const REPO_FILES = Object.keys(
  import.meta.glob([
    "../../{app,bench,db,docs,durable-objects,migrations,patches,public,scripts,test,types}/**/*",
    "../../*.{ts,json,toml}",
  ]),
).map(fromRoot);
const SOURCES = raw(
  import.meta.glob(["../../server.ts", "../../app/**/*.{ts,tsx}", "../../durable-objects/**/*.ts"], {
    query: "?raw",
    import: "default",
    eager: true,
  }),
);

const README = DOCS["README.md"];
const PERFORMANCE = DOCS["docs/PERFORMANCE.md"];
const newcomerDocs = { "README.md": README, "docs/PERFORMANCE.md": PERFORMANCE };

/** Repository paths a document names, in backticks, links or prose (globs and placeholders skipped). */
function pathsIn(text: string): string[] {
  const roots = "app|bench|db|docs|durable-objects|migrations|patches|public|scripts|test|types";
  const found = text.match(new RegExp(`(?<![\\w./-])(?:${roots})/[\\w./\\[\\]$-]*[\\w\\]]`, "g")) ?? [];
  return [...new Set(found)].filter((p) => !/[*{<]/.test(p));
}

describe("README and docs/PERFORMANCE.md tell a newcomer only what is true", () => {
  it("the README reads in five minutes: at most 200 lines, and the measurements are elsewhere", () => {
    expect(README.split("\n").length).toBeLessThanOrEqual(200);
    expect(PERFORMANCE).toBeDefined();
    expect(README).toContain("docs/PERFORMANCE.md");
    // The figures table's header: it belongs to docs/PERFORMANCE.md only.
    expect(README).not.toMatch(/CPU p50 \(ms\)/);
    expect(PERFORMANCE).toMatch(/CPU p50 \(ms\)/);
  });

  it("every npm command they name is a script of package.json", () => {
    const scripts = pkg.scripts as Record<string, string>;
    for (const [name, text] of Object.entries(newcomerDocs)) {
      const named = [...text.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]);
      expect(named.length, name).toBeGreaterThan(0);
      for (const script of named) expect(scripts[script], `${name}: npm run ${script}`).toBeDefined();
    }
    expect(scripts.start).toBeDefined();
    expect(scripts.test).toBeDefined();
  });

  it("every file and folder they name exists, the screenshot included", () => {
    expect(README).toMatch(/!\[[^\]]+\]\(docs\/screenshot\.png\)/);
    for (const [name, text] of Object.entries(newcomerDocs)) {
      for (const p of pathsIn(text)) {
        const exists = REPO_FILES.some((f) => f === p || f.startsWith(`${p.replace(/\/$/, "")}/`));
        expect(exists, `${name} names ${p}`).toBe(true);
      }
    }
  });

  it("every ADR they cite exists", () => {
    const adrs = new Set(REPO_FILES.filter((f) => f.startsWith("docs/decisions/")).map((f) => f.slice(15, 19)));
    for (const [name, text] of Object.entries(newcomerDocs)) {
      for (const n of text.match(/\b00\d\d\b/g) ?? []) expect(adrs.has(n), `${name} cites ADR ${n}`).toBe(true);
    }
  });

  it("the demo users table matches the seed", () => {
    expect(README).toContain(DEMO_PASSWORD);
    for (const u of DEMO_USERS) expect(README).toMatch(new RegExp(`\\| ${u.fullName} \\| ${u.email} \\|`));
  });

  it("the configuration table lists every variable and secret the worker reads", () => {
    const table = README.slice(README.indexOf("## Configuration"));
    const bindings = new Set(["DB", "ASSETS", "USER_HUB", "CONVERSATION_ROOM"]);
    const names = new Set<string>();
    for (const src of Object.values(SOURCES)) {
      for (const m of src.matchAll(/\benv\??\.([A-Z][A-Z0-9_]+)\b/g)) names.add(m[1]);
      for (const m of src.matchAll(/requireSecret\([^,]+,\s*"([A-Z][A-Z0-9_]+)"/g)) names.add(m[1]);
    }
    expect(names.size).toBeGreaterThan(5);
    for (const n of names) if (!bindings.has(n)) expect(table, n).toContain(`\`${n}\``);
  });

  it("no document points to a README section that is gone", () => {
    const headings = new Set([...README.matchAll(/^#+ (.+)$/gm)].map((m) => m[1].trim()));
    for (const [name, text] of Object.entries(DOCS)) {
      for (const m of text.matchAll(/README(?:\.md)?,? \(([^)]+)\)/g)) {
        expect(headings.has(m[1]), `${name} points to README (${m[1]})`).toBe(true);
      }
    }
  });
});
