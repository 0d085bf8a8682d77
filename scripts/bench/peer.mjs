// The bench's peer (issue 40, ADR 0060): a minimal Remix v2 app with LoopRide's versions and
// build (scripts/bench/peer/), one page whose loader runs one D1 query and renders cards to a
// page of LoopRide's size: "the floor", what the stock stack costs. The same markup from
// template strings (peer/limit.ts) is "the limit". run.mjs serves it beside LoopRide and
// profiles the three interleaved, so every ratio comes from one run on one machine.
import { bin, run } from "../lib/process.mjs";
import { freePort } from "../lib/server.mjs";
import { bundleWorker, serveWorker } from "./serve.mjs";

const ROOT = "scripts/bench/peer";
const CONFIG = `${ROOT}/wrangler.toml`;
const BUNDLE = ".cache/bench/peer";
const RIDES = 2_000;

export const PEER_PAGES = { floor: "/", limit: "/limit" };

/** The peer's Remix build (vite) and wrangler's bundle of it; returns the bundle's folder. */
export async function buildPeer() {
  await run(bin("remix"), ["vite:build", ROOT, "--sourcemapServer"], { stdio: ["ignore", "ignore", "inherit"] });
  return bundleWorker(CONFIG, BUNDLE);
}

const PLACES = [
  "Koramangala",
  "HSR Layout",
  "Indiranagar",
  "Whitefield ITPL",
  "Manyata Tech Park",
  "Electronic City",
  "Jayanagar",
  "Hebbal",
  "Marathahalli",
  "Bellandur",
];
const DRIVERS = ["Priya S.", "Rahul M.", "Ananya K.", "Vikram R.", "Deepa N.", "Arjun P.", "Kavya T.", "Suresh B."];

/**
 * The peer served on a free port with its inspector, on a fresh in-memory D1 of RIDES rides
 * (indexed as LoopRide's hot reads are).
 */
export async function servePeer(bundleDir) {
  const server = await serveWorker({
    config: CONFIG,
    name: "peer",
    bundleDir,
    port: await freePort(),
    inspectorPort: await freePort(),
  });
  const db = await server.mf.getD1Database("DB");
  await db.exec(
    "CREATE TABLE rides (id TEXT PRIMARY KEY, driver TEXT NOT NULL, from_place TEXT NOT NULL, " +
      "to_place TEXT NOT NULL, departs_at INTEGER NOT NULL, seats_left INTEGER NOT NULL, seat_rupees INTEGER NOT NULL)",
  );
  await db.exec("CREATE INDEX rides_departs_at ON rides (departs_at)");
  const insert = db.prepare("INSERT INTO rides VALUES (?, ?, ?, ?, ?, ?, ?)");
  const first = Date.UTC(2026, 10, 30, 2, 0);
  const rows = Array.from({ length: RIDES }, (_, i) =>
    insert.bind(
      `r${String(i).padStart(5, "0")}`,
      DRIVERS[i % DRIVERS.length],
      PLACES[i % PLACES.length],
      PLACES[(i * 3 + 1) % PLACES.length],
      first + i * 7 * 60_000,
      1 + (i % 4),
      40 + ((i * 37) % 160),
    ),
  );
  for (let i = 0; i < rows.length; i += 500) await db.batch(rows.slice(i, i + 500));
  return server;
}
