import { beforeAll, describe, expect, it } from "vitest";
// @ts-ignore The Remix server build exists only after `npm run build`.
import * as build from "../../build/server";
import { communityActionSchema, membershipActionSchema } from "~/schemas/communities";
import { completionActionSchema } from "~/schemas/completion";

import { commuteIntentSchema } from "~/schemas/commutes";
import { messageActionSchema, notificationActionSchema } from "~/schemas/messages";
import { LAYOUT_ROUTES, MATRIX } from "../security/authz-matrix";
import { buildScenario, ROLES, type Scenario } from "../support/authz-scenario";
import { runCell } from "../support/authz-run";
import { ROUTE_SOURCES } from "../support/route-sources";

type RouteModule = { loader?: unknown; action?: unknown; default?: unknown };
const manifest = (build as unknown as { routes: Record<string, { id: string; module: RouteModule }> }).routes;

// The route sources (with their intent handlers'), to find every intent a route's forms or action handle.
const sources = ROUTE_SOURCES;
const SCHEMAS: Record<string, { options: { shape: { intent: { value: string } } }[] }> = {
  communityActionSchema,
  // The community page hands its form to this helper, which parses communityActionSchema.
  handleCommunityIntent: communityActionSchema,
  completionActionSchema,
  membershipActionSchema,
  messageActionSchema,
  notificationActionSchema,
  // A route that hands its form to handleCommuteIntent handles every intent of its schema.
  handleCommuteIntent: commuteIntentSchema(),
} as never;

function intentsIn(source: string): Set<string> {
  const found = new Set<string>();
  const add = (re: RegExp) => {
    for (const m of source.matchAll(re)) found.add(m[1]);
  };
  add(/intent\s*[!=]==\s*"([\w-]+)"/g);
  add(/case\s+"([\w-]+)":/g);
  add(/\bintent="([\w-]+)"/g);
  add(/name="intent"\s+value="([\w-]+)"/g);
  add(/intent:\s*"([\w-]+)"/g);
  // handleRideIntent's per-screen list of accepted intents.
  for (const m of source.matchAll(/allowed:\s*\[([^\]]*)\]/g))
    for (const v of m[1].matchAll(/"([\w-]+)"/g)) found.add(v[1]);
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    if (new RegExp(`\\b${name}\\b`).test(source)) for (const o of schema.options) found.add(o.shape.intent.value);
  }
  return found;
}

describe("the matrix covers the app", () => {
  it("lists every page and every action of the route manifest, and nothing that does not exist", () => {
    const missing: string[] = [];
    for (const [id, route] of Object.entries(manifest)) {
      if (LAYOUT_ROUTES.includes(id)) continue;
      if ((route.module.loader || route.module.default) && !MATRIX.some((c) => c.route === id && c.method === "GET"))
        missing.push(`GET ${id}`);
      if (route.module.action && !MATRIX.some((c) => c.route === id && c.method === "POST")) missing.push(`POST ${id}`);
      if (!route.module.action && MATRIX.some((c) => c.route === id && c.method === "POST"))
        missing.push(`no action in ${id}`);
    }
    for (const c of MATRIX) if (!manifest[c.route]) missing.push(`unknown route ${c.route}`);
    expect(missing).toEqual([]);
    expect(Object.keys(manifest).length).toBeGreaterThan(30);
  });

  it("lists every intent each route handles", () => {
    const missing: string[] = [];
    const found: Record<string, string[]> = {};
    for (const [file, source] of Object.entries(sources)) {
      const id = `routes/${file
        .split("/")
        .pop()!
        .replace(/\.tsx?$/, "")}`;
      if (!manifest[id]?.module.action) continue;
      const covered = new Set(MATRIX.filter((c) => c.route === id && c.method === "POST").map((c) => c.intent));
      found[id] = [...intentsIn(source)].sort();
      for (const intent of found[id]) if (!covered.has(intent)) missing.push(`${id} intent=${intent}`);
    }
    expect(missing).toEqual([]);
    // The scanner really finds intents (so an empty "missing" above means something).
    expect(found["routes/_app.rides.$id.completion"]).toEqual([
      "complete",
      "confirm-received",
      "dispute-no-show",
      "mark-paid",
      "no-show",
      "process-payments",
      "rate",
    ]);
    expect(found["routes/_app.dashboard.messages"]).toEqual(["mark-read", "open", "send"]);
    expect(found["routes/_app.communities.$id"]).toEqual([
      "approve",
      "clear",
      "handover",
      "invite-reset",
      "invite-revoke",
      "join",
      "leave",
      "promote",
      "reject",
      "remove",
      "set-email-domain",
      "set-join-mode",
      "set-policy",
      "suspend",
      "unsuspend",
      "work-email-code",
      "work-email-verify",
    ]);
    expect(found["routes/_app.commutes.$id"]).toEqual([
      "accept-all",
      "book-all",
      "change-occurrence",
      "change-pattern",
      "decline-booking",
      "end",
      "end-booking",
      "pause",
      "resume",
      "skip",
      "skip-day",
      "women-lock-all",
    ]);
    expect(found["routes/_app.rides.$id._index"]).toEqual([
      "accept",
      "cancel-request",
      "cancel-ride",
      "reject",
      "save",
      "unsave",
      "women-lock",
    ]);
  });
});

describe("authorization matrix: every cell through the real worker", () => {
  let s: Scenario;
  // The per-test roll-back (test/setup/roll-back-each-test.ts): each test starts from the state
  // after this hook, so cells are independent.
  beforeAll(async () => {
    s = await buildScenario();
  });

  // Every allowed call with an effect gets its own test (the per-test roll-back undoes it);
  // the calls that must change nothing share one test per column, run one after the
  // other on the same state (each is checked against the state the call before left).
  for (const col of MATRIX) {
    describe(`${col.method} ${col.name}`, () => {
      const effectful = ROLES.filter((r) => col.expect[r].startsWith("done"));
      const inert = ROLES.filter((r) => !col.expect[r].startsWith("done"));
      for (const role of effectful) {
        it(`${role}: ${col.expect[role]}`, async () => {
          await runCell(col, s, role, col.expect[role]);
        });
      }
      if (inert.length) {
        it(inert.map((r) => `${r}: ${col.expect[r]}`).join(", "), async () => {
          const failures: string[] = [];
          // Each call is compared with the database as the call before left it: that call's
          // snapshot, or a fresh one after a call that failed its check.
          let before: Record<string, string> | undefined;
          for (const role of inert) {
            try {
              before = await runCell(col, s, role, col.expect[role], undefined, before);
            } catch (e) {
              before = undefined;
              failures.push((e as Error).message.split("\n")[0]);
            }
          }
          expect(failures).toEqual([]);
        });
      }
    });
  }
});
