import type { ServerBuild } from "@remix-run/cloudflare";
import { type AgnosticRouteObject, matchRoutes } from "@remix-run/router";
import { describe, expect, it } from "vitest";
// @ts-ignore The Remix server build exists only after `npm run build`.
import * as built from "../../build/server";
import { routeSubset, segmentOf, staticSegments, subsetKey } from "~/utils/route-subsets.server";
import { get, signedInUser } from "../support/worker";

// ADR 0063: the router ranks only the routes a path could match. Every path must match the
// same routes, in the same order, in its subset as in the whole tree, and so must every parent
// path of it (the client's initial manifest is made from those).

const build = built as unknown as ServerBuild;
type Routes = ServerBuild["routes"];

/** The route tree as the server runtime builds it from a build's routes. */
function tree(routes: Routes, parentId?: string): AgnosticRouteObject[] {
  return Object.values(routes)
    .filter((r) => r.parentId === parentId)
    .map((r) =>
      r.index
        ? { id: r.id, index: true, path: r.path }
        : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: tree(routes, r.id) },
    );
}

const ids = (routes: AgnosticRouteObject[], path: string) =>
  matchRoutes(routes, path)?.map((m) => `${m.route.id}:${JSON.stringify(m.params)}`) ?? null;

function fullPath(routes: Routes, id: string) {
  const parts: string[] = [];
  for (let r: Routes[string] | undefined = routes[id]; r; r = r.parentId ? routes[r.parentId] : undefined) {
    if (r.path) parts.unshift(r.path);
  }
  return `/${parts.join("/")}`;
}

/** Paths each route matches, odd spellings of them, and paths no page has. */
function samplePaths(): string[] {
  const out = new Set<string>([
    "/",
    "/nope",
    "/nope/deeper",
    "/Dashboard",
    "/DASHBOARD/RIDES",
    "/%64ashboard",
    "/dashboard%2Frides",
    "/%E2%84%AAey",
    "/%zz",
    "/rides/",
    "/rides.data",
    "/_root.data",
    "/healthz/",
  ]);
  for (const id of Object.keys(build.routes)) {
    const path = fullPath(build.routes, id)
      .replace(/:[\w-]+/g, "x1")
      .replace(/\*$/, "a/b")
      .replace(/\/([^/]+)\?/g, "/$1");
    out.add(path);
    out.add(path.toUpperCase());
    out.add(`${path}/extra`);
    out.add(`${path}.data`);
  }
  return [...out];
}

/** "/a/b/c" and its parents "/a/b", "/a", "/". */
function withParents(path: string): string[] {
  const segments = path.split("/").filter(Boolean);
  const out = [path];
  while (segments.length > 0) {
    segments.pop();
    out.push(`/${segments.join("/")}`);
  }
  return out;
}

describe("route subsets (ADR 0063)", () => {
  const whole = tree(build.routes);
  const statics = staticSegments(build);

  it("matches every path and its parents as the whole route tree does", () => {
    let compared = 0;
    for (const path of samplePaths()) {
      const key = subsetKey(statics, path);
      if (key === null) continue;
      const subset = tree(routeSubset(build, key));
      // As the server runtime matches a single fetch data request: the page's path.
      const page = path.endsWith(".data") ? path.slice(0, -5).replace(/^\/_root$/, "/") : path;
      for (const p of new Set([path, ...withParents(page)])) {
        expect(ids(subset, p), `${p} (subset "${key}")`).toEqual(ids(whole, p));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  it("hands the router a small part of the tree", () => {
    const all = Object.keys(build.routes).length;
    expect(all).toBeGreaterThan(50);
    for (const path of ["/healthz", "/dashboard", "/rides", "/"]) {
      const key = subsetKey(statics, path);
      expect(key, path).not.toBeNull();
      const size = Object.keys(routeSubset(build, key as string)).length;
      expect(size, path).toBeLessThan(all / 3);
    }
  });

  it("leaves client route discovery and odd paths to the whole tree", () => {
    expect(segmentOf("/__manifest")).toBeNull();
    expect(segmentOf("//dashboard")).toBeNull();
    expect(segmentOf("/Dashboard/rides.data")).toBe("dashboard");
    expect(segmentOf("/_root.data")).toBe("");
  });

  it("serves pages, data requests and unknown paths through the worker", async () => {
    const { cookie } = await signedInUser();
    const page = await get("/dashboard", { cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('"routes/_app.dashboard._index"');
    const data = await get("/dashboard.data", { cookie });
    expect(data.status).toBe(200);
    const missing = await get("/no-such-page", { cookie });
    expect(missing.status).toBe(404);
    const manifest = await get(`/__manifest?p=${encodeURIComponent("/rides/x1")}&version=${build.assets.version}`);
    expect(await manifest.text()).toContain("routes/_app.rides.$id._index");
  });
});

// server.ts must keep its handlers across requests and hand each page only its subset. What
// a handler reads of the build's route objects shows it: deriving a route tree reads every
// route's path and parent, and a document request reads the module of every route its build
// holds (the runtime's entry route modules).
describe("server.ts's handlers (ADR 0063)", () => {
  const watched = ["path", "parentId", "index", "module"] as const;

  /** Counts reads of the watched properties of every route object until `restore` is called. */
  function watchRoutes() {
    const reads = new Map<string, Set<string>>(watched.map((p) => [p, new Set<string>()]));
    const restores: (() => void)[] = [];
    for (const [id, route] of Object.entries(build.routes)) {
      for (const prop of watched) {
        const own = Object.getOwnPropertyDescriptor(route, prop);
        if (!own) continue;
        let value = own.value;
        Object.defineProperty(route, prop, {
          configurable: true,
          enumerable: own.enumerable,
          get() {
            reads.get(prop)?.add(id);
            return value;
          },
          set(v) {
            value = v;
          },
        });
        restores.push(() => Object.defineProperty(route, prop, { ...own, value }));
      }
    }
    return { reads, restore: () => restores.forEach((r) => r()) };
  }

  it("builds no route tree per request and reads only the page's subset", async () => {
    const { cookie } = await signedInUser();
    const pages = [
      { path: "/login", cookie: undefined },
      { path: "/dashboard", cookie },
      { path: "/rides", cookie },
    ];
    // The first request of each subset makes its handler (once per isolate).
    for (const p of pages) expect((await get(p.path, { cookie: p.cookie })).status).toBe(200);
    const all = Object.keys(build.routes).length;
    for (const p of pages) {
      const { reads, restore } = watchRoutes();
      try {
        expect((await get(p.path, { cookie: p.cookie })).status).toBe(200);
      } finally {
        restore();
      }
      const subset = new Set(Object.keys(routeSubset(build, subsetKey(staticSegments(build), p.path) as string)));
      for (const prop of ["path", "parentId", "index"] as const) {
        expect([...(reads.get(prop) ?? [])], `${p.path}: a tree was derived (${prop})`).toEqual([]);
      }
      const modules = [...(reads.get("module") ?? [])];
      expect(modules.length, `${p.path}: the document read no route module`).toBeGreaterThan(0);
      expect(
        modules.filter((id) => !subset.has(id)),
        `${p.path}: routes outside its subset`,
      ).toEqual([]);
      expect(modules.length, p.path).toBeLessThan(all / 3);
    }
  });
});
