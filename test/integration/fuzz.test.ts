import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "../support/env";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, istDate } from "~/domain/time";
import { weekStartOf } from "~/domain/settle-up";
import { communityActionSchema, membershipActionSchema } from "~/schemas/communities";
import { completionActionSchema } from "~/schemas/completion";
import { tripIntentSchema } from "~/schemas/trip";
import { messageActionSchema, notificationActionSchema } from "~/schemas/messages";
import { createRideIntentSchema } from "~/schemas/rides";

import { commuteIntentSchema } from "~/schemas/commutes";
import { bookCommute, topUpCommutes } from "~/models/commutes.server";
import { ROUTE_SOURCES } from "../support/route-sources";
import { rideIntentSchema } from "~/intents/rides.server";
import {
  addMember,
  createCommunity,
  createCommutePattern,
  createMessage,
  createNotification,
  createRide,
  createRideRequest,
  createUser,
} from "../../db/factories";
import { createSession } from "~/models/sessions.server";
import { serializeSessionCookie } from "~/utils/auth.server";
import { issueResetToken } from "~/models/password-resets.server";
import { signMailToken, VERIFY_EMAIL_TTL_MS } from "~/models/outbox/tokens.server";
import { BASE, db, postForm, signedInUser } from "../support/worker";
import {
  bodyKind,
  encodeBody,
  formEntries,
  malformedCookie,
  nastyString,
  offSiteRedirect,
  type BodyKind,
  type Entry,
} from "../support/fuzz-inputs";
import { invariantViolations } from "../support/invariants";
import worker from "../../server";

// Property-based fuzzing of every action in the app (issue 9, item 3). Each intent of each
// route gets RUNS random submissions through the real worker and real D1, from a mix of
// signed-in actors (driver, riders, moderator, stranger) and a visitor. The answer must
// never be a 5xx, a redirect must stay on this site, and afterwards the whole database
// must satisfy test/support/invariants.ts. A failure prints fast-check's seed and the
// shrunk counter-example; put the seed in SEED to replay it.

const RUNS = 200;
const SEED: number | undefined = undefined;
const PASSWORD = "filter-coffee-9";

// ---------------------------------------------------------------------------------------
// The scenario: one small Bengaluru world with rows in every state the actions care about.

async function session(userId: string) {
  const sessionId = await createSession({ db: db() }, userId);
  return (await serializeSessionCookie(new Request(BASE), env, sessionId)).split(";")[0];
}

async function buildWorld() {
  const d = db();
  const driver = await signedInUser({
    fullName: "Priya Sharma",
    email: `priya-${crypto.randomUUID()}@example.test`,
    password: PASSWORD,
    pepper: env.PASSWORD_PEPPER,
    profile: { upiId: "priya@okaxis", vehicleInfo: { has_car: true, car_type: "petrol" } },
  });
  const r1 = await signedInUser({ fullName: "Rahul Verma" });
  const r2 = await signedInUser({ fullName: "Sneha Kulkarni" });
  const r3 = await signedInUser({ fullName: "Vikram Reddy" });
  const r4 = await signedInUser({ fullName: "Kavya Nair" });
  const mod = await signedInUser({ fullName: "Ananya Iyer" });
  const stranger = await signedInUser({ fullName: "Mohammed Irfan" });

  const community = await createCommunity(
    { db: d },
    {
      createdBy: driver.id,
      // One name per community (issue 38), and the fuzzer's storage is shared between worlds.
      name: `HSR Layout Sector 2 Residents ${crypto.randomUUID().slice(0, 8)}`,
    },
  );
  const m1 = await addMember({ db: d }, { communityId: community.id, userId: r1.id });
  const m2 = await addMember({ db: d }, { communityId: community.id, userId: r2.id, status: "pending" });
  const m3 = await addMember({ db: d }, { communityId: community.id, userId: r3.id, status: "rejected" });
  const m4 = await addMember({ db: d }, { communityId: community.id, userId: mod.id, role: "moderator" });
  const other = await createCommunity(
    { db: d },
    { createdBy: stranger.id, name: `Manyata Tech Park Carpool ${crypto.randomUUID().slice(0, 8)}`, type: "workplace" },
  );
  const o1 = await addMember({ db: d }, { communityId: other.id, userId: r4.id, status: "pending" });

  const tomorrow = addDays(istDate(), 1);
  const ride = await createRide(
    { db: d },
    { driverId: driver.id, seats: 6, communityId: community.id, date: tomorrow, notes: "Pickup near 27th Main" },
  );
  const accepted = await createRideRequest(
    { db: d },
    { rideId: ride.id, riderId: r1.id, seats: 1, status: "accepted" },
  );
  const pending = [
    await createRideRequest({ db: d }, { rideId: ride.id, riderId: r2.id, seats: 2 }),
    await createRideRequest({ db: d }, { rideId: ride.id, riderId: r3.id, seats: 1 }),
    await createRideRequest({ db: d }, { rideId: ride.id, riderId: mod.id, seats: 3 }),
  ];
  const rejected = await createRideRequest({ db: d }, { rideId: ride.id, riderId: r4.id, status: "rejected" });
  const full = await createRide(
    { db: d },
    { driverId: driver.id, seats: 1, fromLocation: "Koramangala", toLocation: "Whitefield ITPL" },
  );
  const fullReq = await createRideRequest({ db: d }, { rideId: full.id, riderId: r2.id, seats: 1, status: "accepted" });
  const fullPending = await createRideRequest({ db: d }, { rideId: full.id, riderId: r3.id, seats: 1 });
  const cancelled = await createRide({ db: d }, { driverId: driver.id, status: "cancelled" });
  const soon = await createRide({ db: d }, { driverId: driver.id, date: istDate(), time: "23:59" });
  const soonReq = await createRideRequest({ db: d }, { rideId: soon.id, riderId: r1.id, status: "accepted" });
  const strangerRide = await createRide(
    { db: d },
    { driverId: stranger.id, fromLocation: "Indiranagar", toLocation: "Bagmane Tech Park" },
  );
  const strangerReq = await createRideRequest({ db: d }, { rideId: strangerRide.id, riderId: r4.id });

  // A ride completed through the real action, so its payments exist for the payment intents.
  const done = await createRide(
    { db: d },
    { driverId: driver.id, seats: 4, communityId: community.id, date: istDate(), time: "00:00" },
  );
  await createRideRequest({ db: d }, { rideId: done.id, riderId: r1.id, seats: 1, status: "accepted" });
  await createRideRequest({ db: d }, { rideId: done.id, riderId: r2.id, seats: 2, status: "accepted" });
  const completed = await postForm(`/rides/${done.id}/completion`, { intent: "complete" }, { cookie: driver.cookie });
  expect(completed.status).toBe(302);
  const payments = (
    await env.DB.prepare("SELECT id FROM payments WHERE ride_id = ?").bind(done.id).all<{ id: string }>()
  ).results.map((p) => p.id);
  expect(payments).toHaveLength(2);

  const notes = [
    await createNotification({ db: d }, { userId: r1.id }),
    await createNotification({ db: d }, { userId: r1.id, type: "message" }),
    await createNotification({ db: d }, { userId: driver.id, type: "ride_request" }),
  ];
  const msg = await createMessage(
    { db: d },
    { senderId: r1.id, receiverId: driver.id, content: "Is the 8:30 seat still free?" },
  );

  // A commute of the driver (issue 14): its days for 14 days, Rahul waiting on every one.
  const commute = await createCommutePattern(
    { db: d },
    { driverId: driver.id, weekdays: 127, startDate: tomorrow, seats: 3 },
  );
  const commuteDays = (await topUpCommutes({ db: d })).map((r) => r.id);
  await bookCommute({ db: d }, r1.id, commute.id, { weekdays: 127, seats: 1, notes: null });

  const users = { driver, r1, r2, r3, r4, mod, stranger };
  const ids = {
    commutes: [commute.id],
    commuteDays: commuteDays.slice(0, 3),
    users: Object.values(users).map((u) => u.id),
    communities: [community.id, other.id],
    members: [m1.id, m2.id, m3.id, m4.id, o1.id],
    rides: [ride.id, full.id, cancelled.id, soon.id, strangerRide.id, done.id],
    requests: [
      accepted.id,
      ...pending.map((p) => p.id),
      rejected.id,
      fullReq.id,
      fullPending.id,
      soonReq.id,
      strangerReq.id,
    ],
    payments,
    notifications: notes.map((n) => n.id),
    conversations: [msg.conversationId],
  };
  // Real ids of every kind, offered as values for every field (wrong kind, someone else's row).
  const pool = [...new Set(Object.values(ids).flat())];
  // Genuine e-mail link tokens, as the outbox signs them: without them every random token is
  // refused and the fuzzer never reaches the code behind the check.
  const tokens = {
    verify: await signMailToken(env, {
      p: "verify-email",
      u: r1.id,
      e: r1.email!,
      x: Date.now() + VERIFY_EMAIL_TTL_MS,
    }),
    unsubscribe: await signMailToken(env, { p: "unsubscribe", u: r1.id }),
    reset: await issueResetToken({ db: db() }, r1.id),
  };
  return { users, community, other, ride, full, cancelled, soon, strangerRide, done, ids, pool, tokens };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

// ---------------------------------------------------------------------------------------
// Sending one submission.

let clientSeq = 0;
/** Each submission from a new client address, so the per-address rate limits leave the validation reachable. */
const nextAddress = () => {
  const n = ++clientSeq;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

/** `badCookie`: an unreadable app cookie sent along (finding 5 of issue 19: never a 500). */
type Submission = {
  path: string;
  entries: Entry[];
  kind: BodyKind;
  actor: string;
  via: "document" | "data";
  badCookie?: string | null;
};

/**
 * A JavaScript client posts to the route's single-fetch data URL (/rides/create.data); a
 * browser without JavaScript posts to the page and gets it rendered with the errors. Both
 * reach the same action; the data URL is cheaper, so most runs use it.
 */
function urlOf(s: Submission) {
  if (s.via === "document") return `${BASE}${s.path}`;
  const [pathname, query] = s.path.split(/\?(.*)/s);
  return `${BASE}${pathname === "/" ? "/_root" : pathname}.data${query !== undefined ? `?${query}` : ""}`;
}

function describeSubmission(s: Submission) {
  const short = (v: unknown) => {
    const t = typeof v === "string" ? v : JSON.stringify(v);
    return t.length > 120 ? `${JSON.stringify(t.slice(0, 120))}… (${t.length} chars)` : JSON.stringify(t);
  };
  return `${s.actor}${s.badCookie ? ` (+ cookie ${short(s.badCookie)})` : ""} POST ${short(urlOf(s))} as ${s.kind}: ${s.entries.map(([k, v]) => `${short(k)}=${short(v)}`).join(" & ")}`;
}

// The fuzzer runs with production settings: DEBUG_TIMING off. With it on, every read is
// run twice and every statement's values are kept for the query-plan test; across ten
// thousand hostile submissions that made the pool's isolated-storage rollback fail with
// "Network connection lost" in 3 to 6 of the 24 tests (none with it off).
const FUZZ_ENV = { ...env, DEBUG_TIMING: "0" };

/** Straight to the worker's fetch handler (as test/support/worker-fetch.ts), with FUZZ_ENV. */
async function workerFetch(request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    request as Parameters<typeof worker.fetch>[0],
    FUZZ_ENV as Parameters<typeof worker.fetch>[1],
    ctx,
  );
  const body = await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(body, res);
}

async function send(s: Submission, cookies: Record<string, string | undefined>, extraCookie = "") {
  const { body, contentType } = encodeBody(s.entries, s.kind);
  const cookie = [cookies[s.actor], extraCookie, s.badCookie].filter(Boolean).join("; ");
  return workerFetch(
    new Request(urlOf(s), {
      method: "POST",
      body,
      headers: {
        ...(contentType ? { "Content-Type": contentType } : {}),
        Host: new URL(BASE).host,
        Origin: BASE,
        "Sec-Fetch-Site": "same-origin",
        "CF-Connecting-IP": nextAddress(),
        ...(cookie ? { Cookie: cookie } : {}),
      },
    }),
  );
}

/** The answer to any submission: never a server error; a redirect never leaves the site. */
async function expectSafeAnswer(res: Response, s: Submission, allowedHosts: string[] = []) {
  const what = describeSubmission(s);
  if (res.status >= 500) {
    const text = await res.text();
    expect.fail(`${res.status} for ${what}\n${text.slice(0, 400)}`);
  }
  // A redirect (3xx for a page, 202 + Location for a data request) never leaves the site.
  const location = res.headers.get("Location");
  if (location !== null) {
    const target = new URL(location, BASE);
    const onSite = target.origin === BASE && /^\/(?![/\\])/.test(location);
    expect(onSite || allowedHosts.includes(target.host), `redirect to ${JSON.stringify(location)} for ${what}`).toBe(
      true,
    );
  }
  await res.arrayBuffer();
}

/** A path with a route parameter: mostly real ids, sometimes hostile ones (percent-encoded as a browser would). */
function pathArb(make: (id: string) => string, real: string[], pool: string[]) {
  const encode = (v: string) => {
    try {
      return encodeURIComponent(v);
    } catch {
      return "%ED%A0%80"; // a lone surrogate, as raw (invalid) UTF-8
    }
  };
  return fc
    .oneof(
      { weight: 8, arbitrary: fc.constantFrom(...real) },
      { weight: 1, arbitrary: nastyString(pool).map((v) => encode(v.slice(0, 2000))) },
      {
        weight: 1,
        arbitrary: fc.constantFrom("%", "%E0%A4%A", "%ff%fe", "..", "%2e%2e%2f", "x%00y", "a".repeat(3000)),
      },
    )
    .map(make);
}

// ---------------------------------------------------------------------------------------
// Every action: which route module, which intents, which fields, who sends it.

type Fields = Record<string, fc.Arbitrary<string>>;

type Target = {
  /** The route module (app/routes/<file>) whose action this exercises. */
  file: string;
  intent: string | null;
  path: (w: World) => fc.Arbitrary<string>;
  fields: (w: World) => Fields;
  actors: Array<keyof World["users"] | "visitor">;
  /** Hosts a redirect may go to besides this site. */
  allowedHosts?: string[];
  /**
   * A clean submission sent first: where every field must be right at once (a genuine token
   * and the password twice), the mutated draws reach past the checks too rarely to count on.
   */
  example?: (w: World) => Submission;
};

const c = fc.constant;
const one = <T>(xs: T[]) => fc.constantFrom(...xs);
const ALL: Target["actors"] = ["driver", "r1", "r2", "mod", "stranger", "visitor"];
const redirectTo = fc.oneof(
  { weight: 3, arbitrary: one(["/dashboard", "/rides?date=2026-01-01", "/dashboard/rides?tab=manage", ""]) },
  { weight: 1, arbitrary: offSiteRedirect },
);

function rideIntent(file: string, path: (w: World) => fc.Arbitrary<string>, intents: string[]): Target[] {
  return intents.map((intent) => ({
    file,
    intent,
    path,
    actors: ALL,
    fields: (w): Fields =>
      intent === "cancel-ride" || intent === "save" || intent === "unsave"
        ? { intent: c(intent), rideId: one(w.ids.rides), redirectTo }
        : { intent: c(intent), requestId: one(w.ids.requests), redirectTo },
  }));
}

const intentsOf = (schema: { options: Array<{ shape: { intent: { value: string } } }> }) =>
  schema.options.map((o) => o.shape.intent.value);

const validFuture = () => addDays(istDate(), 3);

const TARGETS: Target[] = [
  ...rideIntent(
    "_app.booking-confirmation.$requestId.tsx",
    (w) => pathArb((id) => `/booking-confirmation/${id}`, w.ids.requests, w.pool),
    ["save", "unsave", "cancel-request"],
  ),
  ...rideIntent("_app.dashboard.rides.tsx", () => c("/dashboard/rides"), ["accept", "reject", "cancel-request"]),
  // My Rides re-exports the dashboard rides action (the same function, fuzzed per intent
  // above): one target that mixes its three intents proves the re-export is wired.
  ...rideIntent("_app.dashboard.my-rides.tsx", () => c("/dashboard/my-rides"), ["accept"]).map(
    (t): Target => ({
      ...t,
      intent: "accept|reject|cancel-request",
      fields: (w: World) => ({ ...t.fields(w), intent: one(["accept", "reject", "cancel-request"]) }),
    }),
  ),
  ...rideIntent(
    "_app.rides.$id._index.tsx",
    (w) => pathArb((id) => `/rides/${id}`, w.ids.rides, w.pool),
    intentsOf(rideIntentSchema),
  ),
  ...rideIntent("_app.rides._index.tsx", () => one(["/rides?index", "/rides?index&date=9999-99-99&page=-1"]), [
    "save",
    "unsave",
  ]),

  ...intentsOf(communityActionSchema).map(
    (intent): Target => ({
      file: "_app.communities.$id.tsx",
      intent,
      path: (w) =>
        pathArb((id) => `/communities/${id}`, w.ids.communities, w.pool).chain((p) =>
          one([p, `${p}?tab=moderation`, `${p}?tab=%ff`]),
        ),
      actors: ALL,
      fields: (w) => ({
        intent: c(intent),
        memberId: one(w.ids.members),
        role: one(["moderator", "admin"]),
        // Issue 16, the ride rules form (set-policy): typed pickup points go through the place list.
        pricingMode: one(["free", "equal", "per_seat"]),
        pickupPoints: fc.oneof(one(["Koramangala\nHSR Layout", "Koramangla", ""]), nastyString()),
        // Issue 16's intents, with values that pass their validation as well as ones that do not,
        // so each run reaches the code behind it (a run that only bounced off was a failure).
        days: one(["1", "7", "30", "2", ""]),
        mode: one(["open", "moderated", "invite", "closed"]),
        domain: fc.oneof(one(["infosys.com", "gmail.com", "localhost"]), nastyString()),
        email: fc.oneof(one(["kavya@infosys.com", "kavya@gmail.com"]), nastyString()),
        code: fc.oneof(one(["123456", "000000", "12345"]), nastyString()),
      }),
    }),
  ),
  ...intentsOf(membershipActionSchema).map(
    (intent): Target => ({
      file: "_app.communities._index.tsx",
      intent,
      path: () => one(["/communities?index", "/communities?index&q=%3Cscript%3E&type=bogus&page=99999999999"]),
      actors: ALL,
      fields: (w) => ({ intent: c(intent), communityId: one(w.ids.communities) }),
    }),
  ),
  ...intentsOf(commuteIntentSchema()).map(
    (intent): Target => ({
      file: "_app.commutes.$id.tsx",
      intent,
      path: (w) => pathArb((id) => `/commutes/${id}`, w.ids.commutes, w.pool),
      actors: ALL,
      fields: (w) => ({
        intent: c(intent),
        weekdays: one(["mon", "sun", "someday", ""]),
        // ADR 0048: which legs "book-all" covers.
        legs: one(["morning", "return", "both", "sideways", ""]),
        // Issue 36: a standing booking's pickup point, on the route, off it, or no place.
        pickup: one(["Bellandur", "Yelahanka", "Nowhere", ""]),
        seats: one(["1", "3", "7", "-1"]),
        riderId: one(w.ids.users),
        rideId: one(w.ids.commuteDays),
        time: one(["07:45", "23:59", "25:00"]),
        fromDate: one([istDate(), addDays(istDate(), 2), addDays(istDate(), 40), "2020-02-30"]),
        lastDate: one([istDate(), addDays(istDate(), 5), addDays(istDate(), -3)]),
        tripCost: one(["250", "₹1,200.50", "-5"]),
        reason: one(["Car at the service centre", ""]),
        redirectTo,
      }),
    }),
  ),
  {
    file: "_app.commutes.new.tsx",
    intent: null,
    path: () => c("/commutes/new"),
    actors: ["driver", "r1", "visitor"],
    fields: (w) => ({
      fromLocation: one(["HSR Layout", "Koramangala", "Atlantis"]),
      toLocation: one(["Manyata Tech Park", "Koramangala"]),
      weekdays: one(["mon", "fri", "funday", ""]),
      time: one(["08:30", "18:15", "8"]),
      returnTime: one(["", "18:00", "07:00", "99:99"]),
      startDate: fc.constant(null).map(validFuture),
      endDate: one(["", addDays(istDate(), 1), addDays(istDate(), 30)]),
      seats: one(["1", "3", "6"]),
      tripCost: one(["250", "0"]),
      notes: one(["AC on", ""]),
      communityId: one([w.community.id, ""]),
    }),
  },
  {
    file: "_app.communities.new.tsx",
    intent: null,
    path: () => c("/communities/new"),
    actors: ["r1", "stranger", "visitor"],
    fields: () => ({
      name: one(["Koramangala Cyclists", "Electronic City Phase 1 Carpool"]),
      type: one(["residential", "workplace", "interest"]),
      location: c("Koramangala, Bengaluru"),
      description: c("Neighbours sharing the morning ride to work."),
    }),
  },
  ...intentsOf(notificationActionSchema).map(
    (intent): Target => ({
      file: "_app.dashboard._index.tsx",
      intent,
      path: () => c("/dashboard?index"),
      actors: ["r1", "driver", "stranger", "visitor"],
      fields: (w): Fields =>
        intent === "mark-read" ? { intent: c(intent), id: one(w.ids.notifications) } : { intent: c(intent) },
    }),
  ),
  ...intentsOf(messageActionSchema).map(
    (intent): Target => ({
      file: "_app.dashboard.messages.tsx",
      intent,
      path: (w) =>
        one([
          "/dashboard/messages",
          `/dashboard/messages?to=${w.users.driver.id}`,
          `/dashboard/messages?c=${w.ids.conversations[0]}`,
        ]),
      actors: ["r1", "driver", "stranger", "mod", "visitor"],
      fields: (w): Fields =>
        intent === "send"
          ? {
              intent: c(intent),
              to: one([w.users.driver.id, w.users.r1.id, w.users.r2.id]),
              content: one(["Leaving at 8:45 from 27th Main", "On my way 🚗", "  ok  "]),
              clientId: fc.uuid(),
            }
          : { intent: c(intent), c: one(w.ids.conversations) },
    }),
  ),
  {
    file: "_app.dashboard.profile.tsx",
    intent: null,
    path: () => c("/dashboard/profile"),
    actors: ["r1", "r2", "visitor"],
    fields: () => ({
      fullName: one(["Rahul Verma", "Rahul V"]),
      residentialArea: c("HSR Layout"),
      workplace: c("Manyata Tech Park"),
      bio: c("Morning commuter, quiet rides please."),
      upiId: one(["rahul@okicici", ""]),
    }),
  },
  // Photo intents sent as plain forms: the "file" is a string, never a photo (400, nothing stored).
  {
    file: "_app.dashboard.profile.tsx",
    intent: "upload-photo",
    path: () => c("/dashboard/profile"),
    actors: ["r1", "visitor"],
    fields: () => ({ intent: c("upload-photo"), photo: one(["", "me.jpg", "\u00ff\u00d8\u00ff\u00e0"]) }),
  },
  {
    file: "_app.dashboard.profile.tsx",
    intent: "remove-photo",
    path: () => c("/dashboard/profile"),
    actors: ["r1", "r2", "visitor"],
    fields: () => ({ intent: c("remove-photo") }),
  },
  {
    file: "_app.dashboard.settings.tsx",
    intent: null,
    path: () => c("/dashboard/settings"),
    actors: ["r1", "visitor"],
    fields: () => ({ setting: one(["emailNotifications", "darkMode", "showPhone"]), value: one(["on", "off"]) }),
  },
  // Issue 37: "Your gender" in Settings.
  {
    file: "_app.dashboard.settings.tsx",
    intent: "gender",
    path: () => c("/dashboard/settings"),
    actors: ["r1", "visitor"],
    fields: () => ({ intent: c("gender"), gender: one(["female", "male", "other", "unsaid", "robot", ""]) }),
  },
  // Issue 37: the operators' queue; no actor is an operator, so every post is a 404 and changes nothing.
  ...["warn", "suspend", "close"].map(
    (intent): Target => ({
      file: "_app.operators.reports.tsx",
      intent,
      path: () => c("/operators/reports"),
      actors: ["r1", "stranger", "visitor"],
      fields: () => ({ intent: c(intent), reportId: one(["", "nope", "x".repeat(80)]) }),
    }),
  ),
  // ADR 0058: lifting a suspension (no actor is an operator: a 404, nothing changes).
  {
    file: "_app.operators.reports.tsx",
    intent: "lift",
    path: () => c("/operators/reports"),
    actors: ["r1", "stranger", "visitor"],
    fields: (w) => ({ intent: c("lift"), userId: one(["", "nope", "x".repeat(80), w.users.r1.id, w.users.driver.id]) }),
  },
  // Issue 35, item 6: a week's statement (the completed ride of today is in this week).
  ...(["pay-week", "confirm-week"] as const).map(
    (intent): Target => ({
      file: "_app.dashboard.settle-up.$week.$riderId.$driverId.tsx",
      intent,
      path: (w) =>
        fc
          .tuple(
            one([weekStartOf(istDate()), addDays(weekStartOf(istDate()), 1), "2026-13-01", "%ff"]),
            one([w.users.r1.id, w.users.r2.id, ...w.pool]),
            one([w.users.driver.id, ...w.pool]),
          )
          .map(([week, rider, driver]) => `/dashboard/settle-up/${week}/${rider}/${driver}`),
      actors: ["r1", "r2", "driver", "stranger", "visitor"],
      fields: (w): Fields =>
        intent === "pay-week"
          ? {
              intent: c(intent),
              method: one(["upi", "cash", "bitcoin"]),
              expectedPaise: one(["0", "10000", "6666", "-1", "1e9", ""]),
              expectedRides: one(["1", "2", "0", "x"]),
            }
          : { intent: c(intent), settlementId: one([...w.pool, "", "x".repeat(65)]) },
    }),
  ),
  {
    file: "_app.rides.$id.book.tsx",
    intent: null,
    path: (w) => pathArb((id) => `/rides/${id}/book`, w.ids.rides, w.pool),
    actors: ["r1", "r2", "r3", "r4", "stranger", "driver", "visitor"],
    fields: () => ({ seats: one(["1", "2"]), notes: one(["Pickup at the BDA complex gate", ""]) }),
  },
  ...["complete", "process-payments", "mark-paid", "confirm-received", "rate", "no-show", "dispute-no-show"].map(
    (intent): Target => ({
      file: "_app.rides.$id.completion.tsx",
      intent,
      path: (w) => pathArb((id) => `/rides/${id}/completion`, [w.done.id, w.ride.id, w.full.id], w.pool),
      actors: ["driver", "r1", "r2", "stranger", "visitor"],
      fields: (w) => ({
        intent: c(intent),
        js: one(["1", "0"]),
        paymentId: one(w.ids.payments),
        method: one(["upi", "cash"]),
        rateeId: one([w.users.driver.id, w.users.r1.id, w.users.r2.id]),
        stars: one(["1", "4", "5"]),
        comment: one(["Smooth ride, on time.", ""]),
        riderId: one([w.users.r1.id, w.users.r2.id, "nobody"]),
      }),
    }),
  ),
  // Issue 37: the trip on the day (the soon ride runs today, with r1 accepted).
  ...intentsOf(tripIntentSchema).map(
    (intent): Target => ({
      file: "_app.rides.$id.trip.tsx",
      intent,
      path: (w) => pathArb((id) => `/rides/${id}/trip`, [w.soon.id, w.ride.id, w.done.id], w.pool),
      actors: ["driver", "r1", "r2", "stranger", "visitor"],
      fields: (w) => ({
        intent: c(intent),
        requestId: one(w.ids.requests),
        code: one(["0000", "1234", "12", "abcd", "", "12345"]),
        shareId: one([...w.pool, ""]),
      }),
    }),
  ),
  ...["create", "suggest"].map(
    (intent): Target => ({
      file: "_app.rides.create.tsx",
      intent,
      path: () => c("/rides/create"),
      actors: ["driver", "r1", "visitor"],
      fields: (w) => ({
        intent: c(intent),
        fromLocation: one(["HSR Layout", "Koramangala"]),
        toLocation: one(["Manyata Tech Park", "Whitefield ITPL"]),
        date: fc.constant(null).map(validFuture),
        time: one(["08:30", "18:15"]),
        seats: one(["1", "3", "6"]),
        tripCost: one(["250", "₹1,200.50", "0"]),
        notes: one(["AC on, no smoking", ""]),
        communityId: one([w.community.id, ""]),
      }),
    }),
  ),
  // Issue 15: this browser's push subscription, and the private calendar feed.
  // Issue 16: report or block a person (any id, including unknown and malformed ones).
  ...["report", "block", "unblock"].map(
    (intent): Target => ({
      file: "_app.people.$id.tsx",
      intent,
      path: (w) => pathArb((id) => `/people/${id}`, w.ids.users, w.pool),
      actors: ["r1", "stranger", "visitor"],
      fields: () => ({
        intent: c(intent),
        reason: one(["harassment", "no_show", "other", "spam", ""]),
        details: one(["Rude at pickup", "", "x".repeat(1200)]),
        context: one(["profile", "ride", "chat", "elsewhere"]),
        redirectTo: one(["/dashboard/settings", "//evil.example", ""]),
      }),
    }),
  ),
  // Deleting an account: only the driver has a password, and the fuzzer never sends it, so
  // no actor is ever deleted (a refused deletion must change nothing).
  {
    file: "_app.dashboard.delete-account.tsx",
    intent: null,
    path: () => c("/dashboard/delete-account"),
    actors: ["driver", "visitor"],
    fields: () => ({
      password: one(["wrong-password-1", "", "x".repeat(250)]),
      confirm: one(["DELETE", "delete", ""]),
    }),
  },
  ...["subscribe", "unsubscribe"].map(
    (intent): Target => ({
      file: "push-subscription.ts",
      intent,
      path: () => c("/push-subscription"),
      actors: ["r1", "r2", "visitor"],
      fields: () => ({
        intent: c(intent),
        endpoint: one([
          "https://push.example.test/send/fuzz-1",
          "https://fcm.googleapis.com/fcm/send/x",
          "http://push.example.test/x",
          "https://evil.example/x",
          "",
        ]),
        p256dh: one([
          "BFyiXn_EA9hJW8-mQjyKcchGRL6zb-s1tY-5F_m0zONcnJUdSxs6tckCHFCjnIiid4X5MnyAHMlBrVbGYMKx7rQ",
          "AAAA",
          "",
        ]),
        auth: one(["qT5lW104Pk9SxXUyUPKwmg", "short", ""]),
      }),
    }),
  ),
  ...["create-feed", "revoke-feed"].map(
    (intent): Target => ({
      file: "calendar-feed.ts",
      intent,
      path: () => c("/calendar-feed"),
      actors: ["r1", "r2", "visitor"],
      fields: () => ({ intent: c(intent) }),
    }),
  ),
  {
    file: "_public._index.tsx",
    intent: null,
    path: () => one(["/?index", "/?index&x=1"]),
    actors: ["visitor", "r1"],
    fields: () => ({ email: fc.emailAddress(), website: one(["", "http://spam.example"]) }),
  },
  {
    file: "_public.login.tsx",
    intent: null,
    path: () => one(["/login", "/login?redirectTo=%2F%2Fevil.example"]),
    actors: ["visitor", "r1"],
    fields: (w) => ({
      identifier: one([w.users.driver.email!, "9876543210", "nobody@example.test"]),
      password: one([PASSWORD, "wrong-password-1"]),
      redirectTo: fc.oneof(
        one(["/dashboard", "/rides/create", "//evil.example", "https://evil.example"]),
        offSiteRedirect,
      ),
    }),
  },
  {
    file: "_public.signup.tsx",
    intent: null,
    path: () => c("/signup"),
    actors: ["visitor"],
    fields: (w) => ({
      fullName: one(["Deepa Gowda", "Sanjay Patil"]),
      identifier: fc.oneof(
        fc.uuid().map((u) => `fuzz-${u}@example.test`),
        fc.integer({ min: 600000000, max: 999999999 }).map((n) => `9${n}`.slice(0, 10)),
      ),
      password: one(["masala-dosa-42", "short"]),
      referralCode: one(["", "LRABC123", w.users.driver.id]),
    }),
  },
  // Issue 15: account recovery and the links in e-mails (tokens: garbage, truncated, forged).
  {
    file: "_public.forgot-password.tsx",
    intent: null,
    path: () => c("/forgot-password"),
    actors: ["visitor", "r1"],
    fields: (w) => ({
      email: fc.oneof(one([w.users.driver.email!, "nobody@example.test", "not-an-address", ""]), fc.string()),
      website: one(["", "http://spam.example"]),
    }),
  },
  {
    file: "_public.reset-password.tsx",
    intent: null,
    path: () => one(["/reset-password", "/reset-password?token=abc"]),
    actors: ["visitor", "r1"],
    // The genuine link's token too: without it every submission was refused alike, and only
    // the rare unreadable body (415) told the fuzzer it had reached anything else. Clean, all
    // three fields are right in about 1 draw in 300, so a run of 200 often had none: the
    // example is one, and the genuine token is used up before the random draws.
    example: (w) => ({
      path: "/reset-password",
      entries: [
        ["token", w.tokens.reset],
        ["password", "filter-coffee-2026"],
        ["confirmPassword", "filter-coffee-2026"],
      ],
      kind: "urlencoded",
      actor: "visitor",
      via: "document",
      badCookie: null,
    }),
    fields: (w) => ({
      token: fc.oneof(c(w.tokens.reset), fc.string(), fc.stringMatching(/^[0-9a-f]{64}$/)),
      password: one(["filter-coffee-2026", "short", ""]),
      confirmPassword: one(["filter-coffee-2026", "other-coffee-2026"]),
    }),
  },
  {
    file: "_public.verify-email.tsx",
    intent: null,
    path: () => c("/verify-email"),
    actors: ["visitor", "r1"],
    fields: (w) => ({
      token: fc.oneof(
        c(w.tokens.verify),
        fc.string(),
        fc.base64String().map((b) => `${b}.${b}`),
      ),
    }),
  },
  {
    file: "_public.unsubscribe.tsx",
    intent: null,
    path: () => one(["/unsubscribe", "/unsubscribe?token=a.b"]),
    actors: ["visitor", "r1"],
    fields: (w) => ({
      token: fc.oneof(
        c(w.tokens.unsubscribe),
        fc.string(),
        fc.base64String().map((b) => `${b}.${b}`),
      ),
      "List-Unsubscribe": one(["", "One-Click"]),
    }),
  },
  {
    file: "_app.dashboard.profile.tsx",
    intent: "resend-verification",
    path: () => c("/dashboard/profile"),
    actors: ["r1", "r2", "visitor"],
    fields: () => ({ intent: c("resend-verification") }),
  },
  {
    file: "auth.google.tsx",
    intent: null,
    path: () => c("/auth/google"),
    actors: ["visitor", "r1"],
    allowedHosts: ["accounts.google.com"],
    fields: () => ({ redirectTo: fc.oneof(one(["/dashboard", "/rides?date=2026-01-01"]), offSiteRedirect) }),
  },
  {
    file: "logout.tsx",
    intent: null,
    path: () => c("/logout"),
    actors: ["visitor", "stranger"],
    fields: () => ({ redirectTo: c("/") }),
  },
  ...["next", "back"].map(
    (intent): Target => ({
      file: "onboarding.tsx",
      intent,
      path: () => one(["/onboarding", "/onboarding?step=2", "/onboarding?step=99"]),
      actors: ["newcomer" as never, "r1", "visitor"],
      fields: () => ({
        intent: c(intent),
        step: one(["1", "2", "3", "4"]),
        phone: one(["98765 43210", "9876543210"]),
        hasCar: one(["yes", "no"]),
        carType: one(["petrol", "electric"]),
        homeLocality: one(["", "Koramangala", "kormangala", "Atlantis"]),
        referralCode: one(["", "LRABC123"]),
      }),
    }),
  ),
  ...[null].map(
    (): Target => ({
      file: "profile-completion.tsx",
      intent: null,
      path: () => one(["/profile-completion", "/profile-completion?step=3"]),
      actors: ["r1", "r2", "visitor"],
      fields: () => ({
        step: one(["1", "2", "3", "4"]),
        fullName: c("Rahul Verma"),
        residentialArea: c("HSR Layout"),
        workplace: c("Bagmane Tech Park"),
        bio: c("Commute daily"),
        phoneNumber: one(["9876543210", "98765 43210"]),
        emergencyContact: c("Meera Verma, 9876501234"),
        make: c("Maruti"),
        model: c("Swift"),
        year: one(["2019", ""]),
        color: c("White"),
        licensePlate: c("KA 01 AB 1234"),
        insuranceInfo: c("ICICI Lombard"),
        smokingAllowed: one(["on", ""]),
        petsAllowed: c("on"),
        musicPreference: one(["quiet", "high"]),
        conversationPreference: c("casual"),
        maxDetourMinutes: one(["15", "60"]),
        genderPreference: c("any"),
      }),
    }),
  ),
];

// ---------------------------------------------------------------------------------------

/** Fuzzed by their own test below (they need earlier steps first). */
const SEQUENCE_TARGETS = [{ file: "onboarding.tsx", intent: "complete" }];

// Route modules, read as text at build time: every one exporting an action must be listed above.
const ACTION_EXPORT =
  /export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b|export\s*\{[^}]*\baction\b[^}]*\}/;

describe("fuzzing covers every action", () => {
  it("lists every route module that exports an action, and every intent of the shared ride-intent schema", () => {
    const withAction = Object.entries(ROUTE_SOURCES)
      .filter(([, src]) => ACTION_EXPORT.test(src))
      .map(([path]) => path.split("/").pop()!)
      .sort();
    expect(withAction.length).toBeGreaterThan(15);
    expect([...new Set(TARGETS.map((t) => t.file))].sort()).toEqual(withAction);
    // Multi-intent routes: every intent their schema (or switch) knows is fuzzed.
    for (const [file, intents] of [
      ["_app.rides.$id._index.tsx", intentsOf(rideIntentSchema)],
      ["_app.commutes.$id.tsx", intentsOf(commuteIntentSchema())],
      ["_app.communities.$id.tsx", intentsOf(communityActionSchema)],
      ["_app.communities._index.tsx", intentsOf(membershipActionSchema)],
      ["_app.dashboard.messages.tsx", intentsOf(messageActionSchema)],
      ["_app.dashboard._index.tsx", intentsOf(notificationActionSchema)],
      ["_app.rides.$id.completion.tsx", intentsOf(completionActionSchema)],
      ["_app.rides.$id.trip.tsx", intentsOf(tripIntentSchema)],
      ["_app.rides.create.tsx", intentsOf(createRideIntentSchema)],
    ] as const) {
      const fuzzed = TARGETS.filter((t) => t.file === file).map((t) => t.intent);
      expect(fuzzed, file).toEqual(expect.arrayContaining([...intents]));
    }
    for (const file of ["_app.rides.$id.completion.tsx", "_app.rides.create.tsx", "onboarding.tsx"]) {
      const cases = [
        ...ROUTE_SOURCES[`../../app/routes/${file}`].matchAll(/case "([a-z-]+)":|intent === "([a-z-]+)"/g),
      ].map((m) => m[1] ?? m[2]);
      const fuzzed = [...TARGETS, ...SEQUENCE_TARGETS]
        .filter((t) => t.file === file)
        .map((t) => t.intent?.split(" ")[0]);
      for (const intent of cases) expect(fuzzed, `${file} intent ${intent}`).toContain(intent);
    }
  });
});

// One test per route module (its intents one after the other, each with RUNS submissions
// and an invariant check): fewer isolated-storage pushes and pops, which flake under load
// once many Durable Objects have been woken by the fan-out.
const FILES = [...new Set(TARGETS.map((t) => t.file))];

describe.each(FILES)("fuzz %s", (file) => {
  const targets = TARGETS.filter((t) => t.file === file);
  const label = targets.map((t) => t.intent ?? "form").join(", ");
  it(`${RUNS} random submissions per intent (${label}): no 5xx, no off-site redirect, invariants hold`, {
    timeout: 120_000 * targets.length,
  }, async () => {
    const w = await buildWorld();
    const newcomer = await createUser({ db: db() }, { onboarded: false, fullName: "Deepa Gowda" });
    const cookies: Record<string, string | undefined> = {
      ...Object.fromEntries(Object.entries(w.users).map(([k, u]) => [k, u.cookie])),
      newcomer: await session(newcomer.id),
      visitor: undefined,
    };
    for (const target of targets) {
      const submission = fc.record({
        path: target.path(w),
        entries: formEntries(target.fields(w), w.pool),
        kind: bodyKind,
        actor: fc.constantFrom(...target.actors),
        via: fc.oneof(
          { weight: 5, arbitrary: fc.constant<Submission["via"]>("data") },
          { weight: 1, arbitrary: fc.constant<Submission["via"]>("document") },
        ),
        badCookie: fc.option(malformedCookie, { freq: 5 }),
      });
      const statuses: Record<number, number> = {};
      await fc.assert(
        fc.asyncProperty(submission, async (s) => {
          // Signing out ends the session: give the actor a fresh one each time.
          if (target.file === "logout.tsx" && s.actor !== "visitor")
            cookies[s.actor] = await session(w.users[s.actor as "stranger"].id);
          const res = await send(s, cookies);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          await expectSafeAnswer(res, s, target.allowedHosts);
        }),
        { numRuns: RUNS, seed: SEED, examples: target.example ? [[target.example(w)]] : [] },
      );
      // The fuzzer must have reached the code behind validation, not only bounced off it.
      expect(Object.keys(statuses).length, `${target.intent}: ${JSON.stringify(statuses)}`).toBeGreaterThan(1);
      expect(await invariantViolations(), `after ${file} ${target.intent ?? ""}`).toEqual([]);
    }
  });
});

describe("fuzz onboarding.tsx - complete", () => {
  it(`${RUNS} random onboardings through every step, then complete: no 5xx, invariants hold`, {
    timeout: 180_000,
  }, async () => {
    const w = await buildWorld();
    const referrer = await signedInUser({ fullName: "Arjun Rao" });
    await env.DB.prepare(
      "INSERT INTO user_referral_codes (user_id, referral_code, created_at) VALUES (?, 'LRFUZZ01', 0)",
    )
      .bind(referrer.id)
      .run();
    const steps = fc.record({
      phone: formEntries(
        { phone: fc.integer({ min: 600000000, max: 999999999 }).map((n) => `9${n}`.slice(0, 10)) },
        w.pool,
      ),
      car: formEntries(
        {
          hasCar: one(["yes", "no"]),
          carType: one(["petrol", "diesel", "hybrid", "electric"]),
          homeLocality: one(["", "HSR Layout", "hsr", "Atlantis"]),
        },
        w.pool,
      ),
      referral: formEntries({ referralCode: one(["", "LRFUZZ01", "lrfuzz01", "LRNOSUCH"]) }, w.pool),
      complete: formEntries({ intent: c("complete") }, w.pool),
      kind: bodyKind,
    });
    let completed = 0;
    await fc.assert(
      fc.asyncProperty(steps, async (st) => {
        const user = await createUser({ db: db() }, { onboarded: false, fullName: "Deepa Gowda" });
        const cookies = { newcomer: await session(user.id) };
        let draft = "";
        const posts: Array<[number, Entry[]]> = [
          [1, [["intent", "next"], ["step", "1"], ...st.phone]],
          [2, [["intent", "next"], ["step", "2"], ...st.car]],
          [3, [["intent", "next"], ["step", "3"], ...st.referral]],
          [4, st.complete],
        ];
        for (const [step, entries] of posts) {
          const s: Submission = {
            path: `/onboarding?step=${step}`,
            entries,
            kind: step === 4 ? st.kind : "urlencoded",
            actor: "newcomer",
            via: "data",
          };
          const res = await send(s, cookies, draft);
          const set = res.headers.getSetCookie().find((h) => h.startsWith("lr_onboarding="));
          if (set) draft = set.split(";")[0];
          if (step === 4 && res.headers.get("Location") === "/dashboard") completed++;
          await expectSafeAnswer(res, s);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(completed).toBeGreaterThan(0);
    expect(await invariantViolations()).toEqual([]);
  });
});
