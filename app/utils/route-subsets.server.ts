import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";

// Why (ADR 0063): @remix-run/router flattens and ranks the whole route tree, and compiles a
// RegExp for every branch it tries, on every matchRoutes call. A page makes 4-6 such calls (the
// server runtime, the static handler, <RemixServer>, <Scripts>' manifest for each parent
// path). With ~60 routes that was most of /healthz's CPU. The library keeps nothing across
// calls, so the app hands it less to rank: one build per first path segment, holding only
// the routes that could match a path starting with it. Each build's handler derives its
// trees once per isolate, as createRequestHandler does for any build.
//
// Why the answers stay the same: a route whose full path starts with a static segment can
// only match a path whose first segment equals it (the router compares ASCII segments
// case-insensitively); every other route (layouts, index routes, dynamic, optional and splat
// first segments) is in every subset. Dropping branches that cannot match keeps the order of
// the rest (ranking is by score, then sibling order, both unchanged), so the first match is
// the full tree's. Every parent path of a page ("/" and those starting with its segment),
// which <Scripts> matches for the client's manifest, is covered by the same subset.

type Handler = ReturnType<typeof createRequestHandler>;
type Routes = ServerBuild["routes"];

/** The first segment of a route's full path, lower-cased, or null when it may match anywhere. */
export function firstStaticSegment(routes: Routes, id: string): string | null {
  const parts: string[] = [];
  for (let r: Routes[string] | undefined = routes[id]; r; r = r.parentId ? routes[r.parentId] : undefined) {
    if (r.path) parts.unshift(r.path);
  }
  const first = parts
    .join("/")
    .split("/")
    .find((s) => s !== "");
  if (first === undefined || first.startsWith(":") || first.includes("*") || first.endsWith("?")) return null;
  return first.toLowerCase();
}

/** The routes of `build` kept for paths whose first segment is `segment` ("" for none of the static ones). */
export function routeSubset(build: ServerBuild, segment: string): Routes {
  const keep = new Set<string>();
  for (const id of Object.keys(build.routes)) {
    const first = firstStaticSegment(build.routes, id);
    if (first !== null && first !== segment) continue;
    // Parents too, so the tree stays whole (they start with the same segment, or none).
    let r: Routes[string] | undefined = build.routes[id];
    for (; r && !keep.has(r.id); r = r.parentId ? build.routes[r.parentId] : undefined) keep.add(r.id);
  }
  // In the build's own order: sibling order decides between routes of equal rank.
  return Object.fromEntries(Object.entries(build.routes).filter(([id]) => keep.has(id)));
}

/** The segment a request's routes are chosen by, as the router reads the path; null: all routes. */
export function segmentOf(pathname: string): string | null {
  // Client route discovery names any paths; an odd path is left to the whole tree.
  if (pathname === "/__manifest" || pathname.includes("//")) return null;
  // A single fetch data request is the page's path plus ".data" ("/_root.data" is "/").
  const path = pathname.endsWith(".data") ? pathname.slice(0, -5).replace(/^\/_root$/, "/") : pathname;
  const raw = path.split("/")[1] ?? "";
  let segment = raw;
  try {
    // As the router decodes a path: per segment, an encoded "/" stays inside it.
    segment = decodeURIComponent(raw).replace(/\//g, "%2F");
  } catch {
    // The router matches a path it cannot decode as it is.
  }
  return segment.toLowerCase();
}

/** The static first segments of the build's routes: one subset each. */
export function staticSegments(build: ServerBuild): Set<string> {
  const statics = new Set<string>();
  for (const id of Object.keys(build.routes)) {
    const first = firstStaticSegment(build.routes, id);
    if (first !== null) statics.add(first);
  }
  return statics;
}

/** Which subset serves a path: a static segment, "" for every other path, null for all routes. */
export function subsetKey(statics: Set<string>, pathname: string): string | null {
  const segment = segmentOf(pathname);
  if (segment === null) return null;
  return statics.has(segment) ? segment : "";
}

/**
 * One request handler per route subset, each made on first use and kept for the isolate's
 * life. At most one per static first segment the routes have, plus one for all other paths.
 */
export function routeSubsetHandlers(build: ServerBuild): (request: Request) => Handler {
  const whole = createRequestHandler(build);
  const statics = staticSegments(build);
  const handlers = new Map<string, Handler>();
  return (request) => {
    const key = subsetKey(statics, new URL(request.url).pathname);
    if (key === null) return whole;
    let handler = handlers.get(key);
    if (!handler) {
      const routes = routeSubset(build, key);
      const assets = { ...build.assets, routes: pick(build.assets.routes, routes) };
      handler = createRequestHandler({ ...build, routes, assets });
      handlers.set(key, handler);
    }
    return handler;
  };
}

function pick<T>(all: Record<string, T>, ids: Routes): Record<string, T> {
  return Object.fromEntries(Object.keys(ids).map((id) => [id, all[id]]));
}
