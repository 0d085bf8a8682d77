import { describe, expect, it } from "vitest";

// Issue 39, item 2: imports only point down and never go round in a circle. The sources are
// read as text (the worker runs in workerd, which has no file system) and every local import,
// type-only ones included, becomes an edge of the graph.

const GLOBS = {
  ...import.meta.glob("../../app/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob("../../durable-objects/**/*.ts", { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob("../../db/**/*.ts", { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob("../../server.ts", { query: "?raw", import: "default", eager: true }),
} as Record<string, string>;
// Keyed by the path from the repository's root.
const SOURCES: Record<string, string> = Object.fromEntries(
  Object.entries(GLOBS).map(([path, source]) => [path.replace(/^(\.\.\/)+/, ""), source]),
);

type Layer =
  | "entry"
  | "fixtures"
  | "root"
  | "routes"
  | "intents"
  | "components"
  | "utils"
  | "durable-objects"
  | "models"
  | "schemas"
  | "domain"
  | "db"
  | "config";

// First match wins, so the single files come before their folders.
const LAYER_OF: [RegExp, Layer][] = [
  [/^server\.ts$/, "entry"],
  [/^db\/(factories|seed|seed-city)\.ts$/, "fixtures"],
  [/^db\/schema\.ts$/, "db"],
  [/^app\/(root|entry\.server|entry\.client)\.tsx$/, "root"],
  [/^app\/routes\//, "routes"],
  [/^app\/intents\//, "intents"],
  [/^app\/components\//, "components"],
  [/^app\/utils\/env\.server\.ts$/, "config"],
  [/^app\/utils\//, "utils"],
  [/^durable-objects\//, "durable-objects"],
  [/^app\/models\//, "models"],
  [/^app\/schemas\//, "schemas"],
  [/^app\/domain\//, "domain"],
];

/**
 * What each layer may import ("type": type-only imports only). Top to bottom:
 * routes → components and utils → models → schemas → domain → db (DESIGN.md: routes → models
 * → domain/db). Anything not listed is refused, including imports within a layer not listed.
 */
const MAY_IMPORT: Record<Layer, Partial<Record<Layer, "any" | "type">>> = {
  // The worker's fetch handler: routes sockets and mail before Remix (whose build it imports,
  // not a source file), exports the Durable Object classes and runs the cron's outbox sender.
  entry: { utils: "any", "durable-objects": "any", models: "any", domain: "any", config: "any" },
  // Test and demo data builders: they make rows the way the app does (member counts through
  // the model's statement, password hashes through sign-up's hasher). Nothing imports them.
  fixtures: { fixtures: "any", models: "any", utils: "any", domain: "any", db: "any", config: "any" },
  // The document shell: reads the user and the toast for every page and draws the layout.
  root: { components: "any", utils: "any", models: "any", domain: "any", config: "any" },
  routes: {
    // /dashboard/my-rides is /dashboard/rides under a second URL (it re-exports that route).
    routes: "any",
    // A route hands its form to its intent handlers (the action wing, ADR 0042).
    intents: "any",
    // useRouteLoaderData("root") is typed by the root loader.
    root: "type",
    components: "any",
    utils: "any",
    models: "any",
    schemas: "any",
    domain: "any",
    config: "any",
  },
  components: {
    components: "any",
    // Components run in the browser: they may name the root loader's and the models' return
    // types (what a loader hands them) and the Durable Objects' frames, never their code.
    root: "type",
    models: "type",
    "durable-objects": "type",
    // The same zod schema validates a form in the browser and in the action.
    schemas: "any",
    domain: "any",
  },
  // The action wing (ADR 0042): between routes and models; it answers through the request
  // plumbing (toasts, redirects, the fan-out) and calls the models. Nothing below imports it.
  intents: { intents: "any", utils: "any", models: "any", schemas: "any", domain: "any", config: "any" },
  utils: {
    utils: "any",
    // A server helper fills a component's props or uses its field names (the honeypot).
    components: "any",
    // The fan-out sends the frames the Durable Objects declare.
    "durable-objects": "type",
    models: "any",
    schemas: "any",
    domain: "any",
    config: "any",
  },
  // The hubs re-check sessions against D1 through the sessions model.
  "durable-objects": { "durable-objects": "any", models: "any", domain: "any", config: "any" },
  // Models never reach up to request plumbing; secrets (HMAC keys) come from the configuration.
  models: { models: "any", schemas: "any", domain: "any", db: "any", config: "any" },
  // Schemas share the domain's limits and messages.
  schemas: { schemas: "any", domain: "any" },
  // Domain functions may name a row type of the schema, but run no query.
  domain: { domain: "any", db: "type" },
  db: {},
  // The worker's configuration (bindings and secrets) is read by every layer and reads none.
  config: {},
};

type Edge = { from: string; to: string; typeOnly: boolean };

const FROM_CLAUSE = /^[ \t]*(import|export)\s+(type\s+)?([\w$\s{},*]*?)\s*from\s*["']([^"']+)["']/gm;
const BARE_IMPORT = /^[ \t]*import\s*["']([^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The local imports of one file, with whether each names types only. */
function importsOf(source: string): { spec: string; typeOnly: boolean }[] {
  const found: { spec: string; typeOnly: boolean }[] = [];
  for (const m of source.matchAll(FROM_CLAUSE)) {
    const names = m[3]
      .replace(/[{}]/g, "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    // `import { type A, type B }` names types only, as does `import type`.
    const braced = /^\{[^}]*\}$/.test(m[3].trim());
    const typeOnly = !!m[2] || (braced && names.length > 0 && names.every((n) => n.startsWith("type ")));
    found.push({ spec: m[4], typeOnly });
  }
  for (const m of source.matchAll(BARE_IMPORT)) found.push({ spec: m[1], typeOnly: false });
  for (const m of source.matchAll(DYNAMIC_IMPORT)) found.push({ spec: m[1], typeOnly: false });
  return found;
}

function join(dir: string, rel: string): string {
  const parts = dir ? dir.split("/") : [];
  for (const p of rel.split("/")) {
    if (p === "..") parts.pop();
    else if (p !== ".") parts.push(p);
  }
  return parts.join("/");
}

/** Files, or `unresolved:<path>` for a local import that names no source file. */
function resolve(files: Set<string>, from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("~/")) base = `app/${spec.slice(2)}`;
  else if (spec.startsWith(".")) base = join(from.split("/").slice(0, -1).join("/"), spec);
  else return null; // a package
  // Assets (`./app.css?url`) and the Remix build server.ts imports are not sources.
  if (spec.includes("?") || base === "build/server") return null;
  for (const c of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (files.has(c)) return c;
  }
  return `unresolved:${base}`;
}

function graphOf(sources: Record<string, string>): Edge[] {
  const files = new Set(Object.keys(sources));
  const edges: Edge[] = [];
  for (const [from, source] of Object.entries(sources)) {
    for (const { spec, typeOnly } of importsOf(source)) {
      const to = resolve(files, from, spec);
      if (to) edges.push({ from, to, typeOnly });
    }
  }
  return edges;
}

const layerOf = (file: string): Layer | null => LAYER_OF.find(([re]) => re.test(file))?.[1] ?? null;

/** Each edge against the table: the offending ones, with the rule they break. */
function upwardEdges(edges: Edge[]): string[] {
  const bad: string[] = [];
  for (const e of edges) {
    if (e.to.startsWith("unresolved:")) {
      bad.push(`${e.from} → ${e.to}: no such source file`);
      continue;
    }
    const a = layerOf(e.from);
    const b = layerOf(e.to);
    if (!a || !b) continue; // reported by the layer test
    const may = MAY_IMPORT[a][b];
    if (!may) bad.push(`${e.from} → ${e.to}: ${a} may not import ${b}`);
    else if (may === "type" && !e.typeOnly) bad.push(`${e.from} → ${e.to}: ${a} may import only types from ${b}`);
  }
  return bad.sort();
}

/**
 * Every knot of files that import each other (strongly connected components of 2+ files, or
 * a file importing itself), each shown as one path round it.
 */
function cyclesOf(edges: Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (next.get(v) ?? []).includes(v)) components.push(c);
    }
  };
  for (const v of new Set(edges.flatMap((e) => [e.from, e.to]))) if (!index.has(v)) visit(v);
  // One concrete path round each component (breadth-first from its first file back to it).
  return components.map((c) => {
    const inside = new Set(c);
    const start = [...c].sort()[0];
    const cameFrom = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift()!;
      const w = (next.get(v) ?? []).find((n) => n === start);
      if (w) {
        const path = [start];
        for (let u = v; u !== start; u = cameFrom.get(u)!) path.splice(1, 0, u);
        const others = c.filter((f) => !path.includes(f)).sort();
        const rest =
          others.length > 0 ? ` (and ${others.length} more files in the same knot: ${others.join(", ")})` : "";
        return `${[...path, start].join(" → ")}${rest}`;
      }
      for (const n of next.get(v) ?? []) {
        if (inside.has(n) && !cameFrom.has(n) && n !== start) {
          cameFrom.set(n, v);
          queue.push(n);
        }
      }
    }
    return c.join(", ");
  });
}

describe("the import graph's reader", () => {
  it("finds value, type-only, re-exported, bare and dynamic imports", () => {
    const src = [
      `import { a, b } from "~/models/x.server";`,
      `import type { T } from "../models/y.server";`,
      `import {\n  type U,\n  type V,\n} from "./z";`,
      `import { type W, w } from "./w";`,
      `export { action, default } from "./r";`,
      `export * from "./s";`,
      `import "./side";`,
      `const m = await import("./lazy");`,
      `import { q } from "drizzle-orm";`,
      `const s = "not an import from './nothing'";`,
    ].join("\n");
    expect(importsOf(src)).toEqual([
      { spec: "~/models/x.server", typeOnly: false },
      { spec: "../models/y.server", typeOnly: true },
      { spec: "./z", typeOnly: true },
      { spec: "./w", typeOnly: false },
      { spec: "./r", typeOnly: false },
      { spec: "./s", typeOnly: false },
      { spec: "drizzle-orm", typeOnly: false },
      { spec: "./side", typeOnly: false },
      { spec: "./lazy", typeOnly: false },
    ]);
  });

  it("reports an upward import, a value import where only types may go, and a cycle with its path", () => {
    const edges = graphOf({
      "app/models/a.server.ts": `import { x } from "../utils/u.server";\nimport { b } from "./b.server";`,
      "app/models/b.server.ts": `import { c } from "./c.server";`,
      "app/models/c.server.ts": `import { a } from "~/models/a.server";`,
      "app/utils/u.server.ts": `import { a } from "../models/a.server";`,
      "app/components/k.tsx": `import { b } from "~/models/b.server";\nimport { gone } from "./gone";`,
    });
    expect(upwardEdges(edges)).toEqual([
      "app/components/k.tsx → app/models/b.server.ts: components may import only types from models",
      "app/components/k.tsx → unresolved:app/components/gone: no such source file",
      "app/models/a.server.ts → app/utils/u.server.ts: models may not import utils",
    ]);
    expect(cyclesOf(edges)).toEqual([
      // The shortest way round from the first file; the rest of the knot is named.
      "app/models/a.server.ts → app/utils/u.server.ts → app/models/a.server.ts" +
        " (and 2 more files in the same knot: app/models/b.server.ts, app/models/c.server.ts)",
    ]);
  });
});

describe("the app's imports", () => {
  const edges = graphOf(SOURCES);

  it("reads the whole tree (every file in a layer of the table)", () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(200);
    expect(edges.length).toBeGreaterThan(800);
    expect(Object.keys(SOURCES).filter((f) => !layerOf(f))).toEqual([]);
  });

  it("only point down the layers", () => {
    expect(upwardEdges(edges)).toEqual([]);
  });

  it("go round in no circle", () => {
    expect(cyclesOf(edges)).toEqual([]);
  });
});
