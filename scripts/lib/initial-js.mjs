// Initial JavaScript per page, from the client build's Remix manifest: what a browser
// downloads before the page is interactive is the manifest itself, the client entry and
// its imports, and every matched route module (root → layouts → leaf) with its imports.
// Each file counts once per page, gzipped at level 9 (what a CDN would serve). A page whose
// route (or a layout above it) turns its scripts off (app/components/page-scripts.tsx) gets none
// of them: 0 bytes.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export const INITIAL_JS_BUDGET = 130_000; // bytes gzipped ("130 KB")

function loadManifest(clientBuildDir) {
  const assets = join(clientBuildDir, "assets");
  if (!existsSync(assets)) throw new Error(`${assets} not found: run the build first`);
  const file = readdirSync(assets).find((n) => /^manifest-[\w-]+\.js$/.test(n));
  if (!file) throw new Error(`no Remix manifest in ${assets}`);
  const text = readFileSync(join(assets, file), "utf8");
  const json = text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1);
  return { manifest: JSON.parse(json), manifestUrl: `/assets/${file}` };
}

// How a route module turns its scripts off: the one line app/routes/_public._index.tsx has.
const NO_SCRIPTS_HANDLE = /^export const handle = NO_SCRIPTS;$/m;

/** Whether a route module's source sends its page without JavaScript. */
export function shipsNoScripts(source) {
  return NO_SCRIPTS_HANDLE.test(source);
}

function routeSource(appDir, id) {
  for (const ext of [".tsx", ".ts", ".jsx", ".js"]) {
    const file = join(appDir, `${id}${ext}`);
    if (existsSync(file)) return readFileSync(file, "utf8");
  }
  return "";
}

function fullPattern(routes, id) {
  const parts = [];
  for (let r = routes[id]; r; r = r.parentId ? routes[r.parentId] : undefined) if (r.path) parts.unshift(r.path);
  return "/" + parts.join("/");
}

/** { routes: { [routeId]: { pattern, index, gzipBytes, files } } } for every leaf route. */
export function initialJsByRoute(clientBuildDir = "build/client", appDir = "app") {
  const { manifest, manifestUrl } = loadManifest(clientBuildDir);
  const { routes, entry } = manifest;
  const gzCache = new Map();
  const gz = (url) => {
    if (!gzCache.has(url)) gzCache.set(url, gzipSync(readFileSync(join(clientBuildDir, url)), { level: 9 }).length);
    return gzCache.get(url);
  };
  const parents = new Set(
    Object.values(routes)
      .map((r) => r.parentId)
      .filter(Boolean),
  );
  const out = {};
  for (const [id, route] of Object.entries(routes)) {
    if (parents.has(id) && !route.index) continue;
    const files = new Set([manifestUrl, entry.module, ...entry.imports]);
    const chain = [];
    for (let r = route; r; r = r.parentId ? routes[r.parentId] : undefined) chain.unshift(r);
    for (const r of chain) for (const f of [r.module, ...(r.imports ?? [])]) files.add(f);
    const list = chain.some((r) => shipsNoScripts(routeSource(appDir, r.id))) ? [] : [...files];
    out[id] = {
      pattern: fullPattern(routes, id),
      index: Boolean(route.index),
      gzipBytes: list.reduce((n, f) => n + gz(f), 0),
      files: list,
    };
  }
  return { routes: out };
}

function score(pattern, segments) {
  const parts = pattern.split("/").filter(Boolean);
  let s = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p === "*") return s + 1;
    if (i >= segments.length) return -1;
    if (p.startsWith(":")) s += 2;
    else if (p === segments[i]) s += 3;
    else return -1;
  }
  return parts.length === segments.length ? s + 1 : -1;
}

/** The report entry of the route a URL path renders (most specific match), or undefined. */
export function initialJsForPath(report, urlPath) {
  const segments = new URL(urlPath, "http://x").pathname.split("/").filter(Boolean);
  let best;
  for (const [id, r] of Object.entries(report.routes)) {
    const s = score(r.pattern, segments) + (r.index ? 0.5 : 0);
    if (s >= 0 && (!best || s > best.s)) best = { s, id, ...r };
  }
  return best && { routeId: best.id, pattern: best.pattern, gzipBytes: best.gzipBytes, files: best.files };
}
