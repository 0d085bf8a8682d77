// The route modules' sources, each followed by the sources of the intent handlers it hands
// its form to (app/intents, ADR 0042): a route's intents are the cases of its handler.
const routes = import.meta.glob("../../app/routes/*.{ts,tsx}", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;
const intents = import.meta.glob("../../app/intents/*.ts", { query: "?raw", import: "default", eager: true }) as Record<
  string,
  string
>;

// The shared ride intents serve several screens: each route lists the ones it accepts
// (`allowed: [...]`), so their module's switch is not every route's.
const SHARED = new Set(["rides", "run"]);

function withIntents(source: string, seen: Set<string>): string {
  let out = source;
  for (const m of source.matchAll(/from "(?:~\/intents|\.)\/([\w-]+)\.server"/g)) {
    const path = `../../app/intents/${m[1]}.server.ts`;
    if (SHARED.has(m[1]) || seen.has(path) || intents[path] === undefined) continue;
    seen.add(path);
    out += `\n${withIntents(intents[path], seen)}`;
  }
  return out;
}

/** Keyed like import.meta.glob from test/integration ("../../app/routes/<file>"). */
export const ROUTE_SOURCES: Record<string, string> = Object.fromEntries(
  Object.entries(routes).map(([path, source]) => [path, withIntents(source, new Set())]),
);

/** The intent handlers' own sources, keyed "../../app/intents/<file>". */
export const INTENT_SOURCES = intents;
