import { describe, expect, it } from "vitest";

// Issue 39: rules on the shape of the code, checked over the sources as text (the worker runs
// in workerd, which has no file system). Routes stay small (loader, action, meta and the
// page's composition; the pieces live in app/components and app/schemas) and catch nothing but
// the sign-in library's errors; the outbox is one module group with one message type; a
// commute ending and a driver leaving a community cancel rides through one function.

const ROUTES = import.meta.glob("../../app/routes/*.{ts,tsx}", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;
const APP = import.meta.glob("../../app/**/*.{ts,tsx}", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const rel = (path: string) => path.replace(/^(\.\.\/)+/, "");

const MAX_ROUTE_LINES = 200;
const MAX_MEDIAN_ROUTE_LINES = 100;
// The sign-in code answers the authentication library's own errors (a bad password, Google's
// refusal); nothing else in a route catches (model errors go through app/intents).
const MAY_CATCH = new Set(["_public.login.tsx", "auth.callback.tsx", "auth.google.tsx"]);

/** Lines as `wc -l` counts them (the formatter ends every file with a newline). */
function lineCount(source: string): number {
  return source.split("\n").length - (source.endsWith("\n") ? 1 : 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** What breaks the size rule: each route over the limit, and the median when over its own. */
function routeSizeProblems(routes: Record<string, string>): string[] {
  const sizes = Object.entries(routes).map(([path, source]) => [path.split("/").pop()!, lineCount(source)] as const);
  const problems = sizes
    .filter(([, n]) => n > MAX_ROUTE_LINES)
    .map(([file, n]) => `${file}: ${n} lines (at most ${MAX_ROUTE_LINES})`)
    .sort();
  const m = median(sizes.map(([, n]) => n));
  if (m > MAX_MEDIAN_ROUTE_LINES) problems.push(`median: ${m} lines (at most ${MAX_MEDIAN_ROUTE_LINES})`);
  return problems;
}

/** Routes with a `catch` (as `grep -rn "catch" app/routes` finds it), outside the sign-in code. */
function catchingRoutes(routes: Record<string, string>): string[] {
  return Object.entries(routes)
    .map(([path, source]) => [path.split("/").pop()!, source] as const)
    .filter(([file, source]) => !MAY_CATCH.has(file) && source.includes("catch"))
    .map(([file, source]) => `${file}:${source.split("\n").findIndex((l) => l.includes("catch")) + 1}`)
    .sort();
}

// A declaration starts its line (`import { type X }` only names it).
const DECLARES = (name: string) => new RegExp(`^\\s*(export\\s+)?(type|interface)\\s+${name}\\b`, "m");

/** Where each message type is declared, and any outbox or mail module outside app/models/outbox/. */
function outboxProblems(app: Record<string, string>): string[] {
  const files = Object.entries(app).map(([path, source]) => [rel(path), source] as const);
  const problems: string[] = [];
  for (const name of ["PushMessage", "OutboxMessage", "RenderedMail", "OutgoingMail"]) {
    const at = files.filter(([, source]) => DECLARES(name).test(source)).map(([p]) => p);
    if (at.length > 1) problems.push(`${name} is declared ${at.length} times: ${at.join(", ")}`);
  }
  for (const [path] of files) {
    const outboxy = /(^|\/)outbox[./]|\/mail\//.test(path);
    if (outboxy && !path.startsWith("app/models/outbox/"))
      problems.push(`${path}: outbox code outside app/models/outbox/`);
  }
  return problems.sort();
}

describe("the checks themselves", () => {
  const lines = (n: number) => "x\n".repeat(n);

  it("report a route over 200 lines and a median over 100, and pass at the limits", () => {
    expect(routeSizeProblems({ "r/a.tsx": lines(200), "r/b.tsx": lines(100), "r/c.tsx": lines(10) })).toEqual([]);
    expect(routeSizeProblems({ "r/a.tsx": lines(201), "r/b.tsx": lines(101), "r/c.tsx": lines(10) })).toEqual([
      "a.tsx: 201 lines (at most 200)",
      "median: 101 lines (at most 100)",
    ]);
    expect(lineCount("a\nb")).toBe(2);
  });

  it("report a catch in a route outside the sign-in code, with its line", () => {
    const routes = {
      "../../app/routes/_public.login.tsx": "try {\n} catch (e) {}\n",
      "../../app/routes/_app.rides.tsx": "const a = 1;\nawait load().catch(() => null);\n",
    };
    expect(catchingRoutes(routes)).toEqual(["_app.rides.tsx:2"]);
  });

  it("report a message type declared twice and outbox code outside its folder", () => {
    const app = {
      "../../app/models/outbox/render.server.ts": "export type PushMessage = { title: string };",
      "../../app/models/push.server.ts": "export type PushMessage = { title: string; tag?: string };",
      "../../app/models/outbox/deliver.server.ts": 'import { type PushMessage } from "./render.server";',
      "../../app/utils/outbox.server.ts": "export const x = 1;",
      "../../app/utils/mail/transport.server.ts": "export const y = 1;",
      "../../app/routes/dev.mailbox._index.tsx": "export const z = 1;",
    };
    expect(outboxProblems(app)).toEqual([
      "PushMessage is declared 2 times: app/models/outbox/render.server.ts, app/models/push.server.ts",
      "app/utils/mail/transport.server.ts: outbox code outside app/models/outbox/",
      "app/utils/outbox.server.ts: outbox code outside app/models/outbox/",
    ]);
  });
});

describe("the app's code", () => {
  it("reads every route", () => {
    expect(Object.keys(ROUTES).length).toBeGreaterThan(40);
  });

  it("no route is over 200 lines and the median route is at most 100", () => {
    expect(routeSizeProblems(ROUTES)).toEqual([]);
  });

  it("no route catches anything outside the sign-in code", () => {
    expect(catchingRoutes(ROUTES)).toEqual([]);
  });

  it("the outbox is one module group (queue, render, deliver) with one declaration of each message type", () => {
    expect(outboxProblems(APP)).toEqual([]);
    const group = Object.keys(APP)
      .map(rel)
      .filter((p) => p.startsWith("app/models/outbox/"));
    expect(group).toEqual(
      expect.arrayContaining([
        "app/models/outbox/queue.server.ts",
        "app/models/outbox/render.server.ts",
        "app/models/outbox/deliver.server.ts",
      ]),
    );
  });
});

/** The body of the named function declaration in `source` (up to the next top-level `}`). */
function bodyOf(source: string, name: string): string {
  const start = source.search(new RegExp(`^(export )?(async )?function ${name}\\b`, "m"));
  if (start < 0) return "";
  const end = source.indexOf("\n}\n", start);
  return source.slice(start, end < 0 ? undefined : end);
}

describe("ending a driver's commutes and rides", () => {
  const source = (file: string) => APP[`../../app/models/${file}`] ?? "";

  it("the reader finds a function's body", () => {
    const src = "function a() {\n  one();\n}\n\nexport async function b(x) {\n  two();\n}\n";
    expect(bodyOf(src, "b")).toContain("two()");
    expect(bodyOf(src, "b")).not.toContain("one()");
    expect(bodyOf(src, "c")).toBe("");
  });

  it("endCommute and driverLeaves both use endCommutesAndRides and write no cancellation of their own", () => {
    for (const [file, name] of [
      ["commutes.server.ts", "endCommute"],
      ["community-moderation.server.ts", "driverLeaves"],
    ]) {
      const body = bodyOf(source(file), name);
      expect(body, `${file} ${name}`).toContain("endCommutesAndRides(");
      expect(body, `${file} ${name}`).not.toMatch(/cancelledLate|\.update\(/);
    }
  });
});
