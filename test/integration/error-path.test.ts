// The one error path (ADR 0013, 0042): models throw typed errors, the one table in
// app/utils/errors.server.ts (answerError) maps them by the kind of page; the action runner
// (app/intents/run.server.ts) reads the intent with parseIntent.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { LAST_ADMIN_MESSAGE } from "~/models/communities.server";
import { ConflictError, ForbiddenError, NotFoundError } from "~/models/errors.server";
import { SeatsUnavailableError } from "~/models/ride-requests.server";
import { rideIntentSchema } from "~/intents/rides.server";
import {
  answerError,
  NOT_FOUND,
  orRespond,
  orText,
  parseIntent,
  type FormErrors,
  type Page,
} from "~/utils/errors.server";
import { addMember, createCommunity, createRide, createRideRequest } from "../../db/factories";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { driverWithRide, requestRow, rideRow, toastOf } from "../support/rides";
import { BASE, db, get, postForm, signedInUser } from "../support/worker";

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};

/** What a thrown `data()` carries (Remix's DataWithResponseInit): its body and status. */
async function thrown(p: Promise<unknown> | (() => unknown)): Promise<{ data: unknown; status?: number }> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    const d = e as { data: unknown; init?: { status?: number } | null };
    return { data: d.data, status: d.init?.status };
  }
  throw new Error("nothing was thrown");
}

describe("the helpers", () => {
  const request = new Request(`${BASE}/somewhere`);
  type ToastOptions = Omit<Extract<Page, { kind: "toast" }>, "kind" | "request" | "env">;
  type FormOptions = Omit<Extract<Page, { kind: "form" }>, "kind" | "reply">;
  // The table's toast and form rows, as the runner uses them.
  const orToast = (options: ToastOptions, work: () => Promise<unknown>) =>
    work().catch((e: unknown) => answerError(e, { kind: "toast", request, env, ...options }));
  const orFormError = (
    submission: { reply(o: FormErrors): unknown },
    work: () => Promise<unknown>,
    options: FormOptions = {},
  ) => work().catch((e: unknown) => answerError(e, { kind: "form", reply: (o) => submission.reply(o), ...options }));

  it("orRespond throws a 403 / 404 / 409 with the model's message, or a page's own not-found texts", async () => {
    expect(await thrown(orRespond(Promise.reject(new ForbiddenError("Nope"))))).toEqual({ data: "Nope", status: 403 });
    expect(await thrown(orRespond(Promise.reject(new NotFoundError("Gone"))))).toEqual({ data: "Gone", status: 404 });
    expect(await thrown(orRespond(Promise.reject(new ConflictError("Full"))))).toEqual({ data: "Full", status: 409 });
    expect(await thrown(orRespond(Promise.reject(new NotFoundError("Gone")), NOT_FOUND.ride))).toEqual({
      data: NOT_FOUND.ride,
      status: 404,
    });
    // Not a model error: untouched (the boundary's 500).
    const bug = new TypeError("bug");
    await expect(orRespond(Promise.reject(bug))).rejects.toBe(bug);
    expect(await orRespond(Promise.resolve(7))).toBe(7);
  });

  it("orToast: a ConflictError is an error toast on the redirect (its own title first); Forbidden / NotFound are thrown 403 / 404", async () => {
    const refused = await orToast({ to: "/here", title: "Failed to do it" }, () =>
      Promise.reject(new ConflictError("A rule said no.")),
    );
    expect((refused as Response).status).toBe(302);
    expect((refused as Response).headers.get("Location")).toBe("/here");
    expect(toastOf(refused as Response)).toEqual({
      title: "Failed to do it",
      description: "A rule said no.",
      type: "error",
    });
    const seats = await orToast({ to: "/here", title: "Failed" }, () => Promise.reject(new SeatsUnavailableError(1)));
    expect(toastOf(seats as Response)).toEqual({
      title: "Not enough seats available",
      description: "Only 1 seat is available for this ride.",
      type: "error",
    });
    expect(await thrown(orToast({ to: "/here" }, () => Promise.reject(new ForbiddenError("Not yours"))))).toEqual({
      data: "Not yours",
      status: 403,
    });
    expect(await thrown(orToast({ to: "/here" }, () => Promise.reject(new NotFoundError("Gone"))))).toEqual({
      data: "Gone",
      status: 404,
    });
    // A list page (toastAll): every refusal is a toast.
    const listed = await orToast({ to: "/list", toastAll: true }, () =>
      Promise.reject(new NotFoundError("Community not found")),
    );
    expect(toastOf(listed as Response)).toEqual({ title: "Error", description: "Community not found", type: "error" });
  });

  it("orToast: an unexpected failure is the spec's toast only when given, and a thrown redirect passes through", async () => {
    const unexpected = { title: "Error", description: "Failed to complete ride. Please try again." };
    const failed = await orToast({ to: "/here", unexpected }, () => Promise.reject(new Error("D1 is down")));
    expect(toastOf(failed as Response)).toEqual({ ...unexpected, type: "error" });
    const bug = new Error("D1 is down");
    await expect(orToast({ to: "/here" }, () => Promise.reject(bug))).rejects.toBe(bug);
    const redirect = new Response(null, { status: 302, headers: { Location: "/login" } });
    await expect(orToast({ to: "/here", unexpected }, () => Promise.reject(redirect))).rejects.toBe(redirect);
  });

  it("orText (resource routes): a refusal is plain text with its status; a route may name its own 404 body", async () => {
    const res = (await orText(Promise.reject(new ForbiddenError("Not yours"))).catch((e: unknown) => e)) as Response;
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(403);
    expect(res.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe("Not yours");
    const page = { notFound: "Calendar feed not found", headers: { "Cache-Control": "no-store" } };
    const gone = (await orText(Promise.reject(new NotFoundError("x")), page).catch((e: unknown) => e)) as Response;
    expect([gone.status, gone.headers.get("Cache-Control"), await gone.text()]).toEqual([
      404,
      "no-store",
      "Calendar feed not found",
    ]);
    expect(await orText(Promise.resolve(7))).toBe(7);
  });

  it("orFormError: the message goes next to the error's field (its title above the form), with the error's status or the form's", async () => {
    const replies: unknown[] = [];
    const submission = { reply: (o?: unknown) => (replies.push(o), { status: "error" as const }) };
    const seats = (await orFormError(submission, () => Promise.reject(new SeatsUnavailableError(0)))) as unknown as {
      init: { status: number };
    };
    expect(seats.init.status).toBe(409);
    expect(replies.pop()).toEqual({
      formErrors: ["Not enough seats available"],
      fieldErrors: { seats: ["This ride is full."] },
    });
    const forbidden = (await orFormError(submission, () => Promise.reject(new ForbiddenError("Not a member")), {
      status: 400,
    })) as unknown as { init: { status: number } };
    expect(forbidden.init.status).toBe(400);
    expect(replies.pop()).toEqual({ formErrors: ["Not a member"] });
    const failed = (await orFormError(submission, () => Promise.reject(new Error("D1")), {
      unexpected: "Failed to save. Please try again.",
    })) as unknown as {
      init: { status: number };
    };
    expect(failed.init.status).toBe(500);
    expect(replies.pop()).toEqual({ formErrors: ["Failed to save. Please try again."] });
  });

  it("parseIntent: an unknown, missing or not-allowed intent is a thrown 400 'Unknown action'; a known one is parsed", () => {
    expect(() => parseIntent(form({ intent: "teleport" }), rideIntentSchema)).toThrow();
    for (const f of [form({ intent: "teleport" }), form({}), form({ intent: "cancel-ride", rideId: "r1" })]) {
      try {
        parseIntent(f, rideIntentSchema, ["save", "unsave"]);
        throw new Error("accepted");
      } catch (e) {
        expect(e).toMatchObject({ data: "Unknown action", init: { status: 400 } });
      }
    }
    const { intent, submission } = parseIntent(form({ intent: "save", rideId: "r1" }), rideIntentSchema, [
      "save",
      "unsave",
    ]);
    expect(intent).toBe("save");
    expect(submission.status).toBe("success");
    expect(parseIntent(form({ intent: "save" }), rideIntentSchema).submission.status).toBe("error");
  });
});

describe("every multi-intent route answers an unknown intent with 400 and changes nothing", () => {
  it("ride, booking, My Rides, discover, community, communities, completion, dashboard, messages, create ride, onboarding, profile", async () => {
    const { driver, ride } = await driverWithRide();
    const rider = await signedInUser();
    const newcomer = await signedInUser({ onboarded: false });
    const req = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id });
    const c = await createCommunity({ db: db() }, { createdBy: driver.id });
    const posts: [string, string, string][] = [
      [`/rides/${ride.id}`, driver.cookie, "teleport"],
      [`/rides/${ride.id}`, driver.cookie, ""],
      [`/booking-confirmation/${req.id}`, rider.cookie, "accept"], // a ride intent this page does not offer
      ["/dashboard/rides", driver.cookie, "teleport"],
      ["/rides?index", rider.cookie, "teleport"],
      [`/communities/${c.id}`, driver.cookie, "explode"],
      ["/communities?index", driver.cookie, "explode"],
      [`/rides/${ride.id}/completion`, driver.cookie, "teleport"],
      ["/dashboard?index", driver.cookie, "delete-all"],
      ["/dashboard/messages", driver.cookie, "delete-all"],
      ["/rides/create", driver.cookie, "launch"],
      ["/onboarding", newcomer.cookie, "explode"],
      ["/dashboard/profile", driver.cookie, "delete-everything"],
    ];
    const before = await dbChecksum();
    for (const [path, cookie, intent] of posts) {
      const res = await postForm(
        path,
        { intent, requestId: req.id, rideId: ride.id, communityId: c.id, step: "1" },
        { cookie },
      );
      expect(res.status, `${path} intent=${intent}`).toBe(400);
      expect(await res.text(), path).toContain("Unknown action");
    }
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    expect((await requestRow(req.id))?.status).toBe("pending");
  });
});

describe("a refused rule (ConflictError) is an error toast on the redirect and changes nothing", () => {
  it("the last admin leaving, a full ride's accept, a cancelled ride's completion", async () => {
    const owner = await signedInUser();
    const c = await createCommunity({ db: db() }, { createdBy: owner.id });
    const { driver, ride } = await driverWithRide({ seats: 1 });
    const [r1, r2] = [await signedInUser(), await signedInUser()];
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: r1.id, status: "accepted" });
    await env.DB.prepare("UPDATE rides SET booked_seats = 1 WHERE id = ?").bind(ride.id).run();
    const waiting = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: r2.id });
    const cancelled = await createRide({ db: db() }, { driverId: driver.id, status: "cancelled" });
    const before = await dbChecksum();

    const leave = await postForm(`/communities/${c.id}`, { intent: "leave" }, { cookie: owner.cookie });
    expect(leave.status).toBe(302);
    expect(leave.headers.get("Location")).toBe(`/communities/${c.id}`);
    expect(toastOf(leave)).toEqual({ title: "Error", description: LAST_ADMIN_MESSAGE, type: "error" });

    const accept = await postForm(
      `/rides/${ride.id}`,
      { intent: "accept", requestId: waiting.id },
      { cookie: driver.cookie },
    );
    expect(accept.status).toBe(302);
    expect(toastOf(accept)).toEqual({
      title: "Not enough seats available",
      description: "This ride is full.",
      type: "error",
    });

    const complete = await postForm(
      `/rides/${cancelled.id}/completion`,
      { intent: "complete" },
      { cookie: driver.cookie },
    );
    expect(complete.status).toBe(302);
    expect(complete.headers.get("Location")).toBe(`/rides/${cancelled.id}/completion`);
    expect(toastOf(complete)?.type).toBe("error");

    expect(changedTables(before, await dbChecksum())).toEqual([]);
    expect((await requestRow(waiting.id))?.status).toBe("pending");
    expect((await rideRow(ride.id))?.booked_seats).toBe(1);
  });

  it("a refusal on a list page (communities) is a toast too, and a member's moderation attempt is a 403", async () => {
    const owner = await signedInUser();
    const member = await signedInUser();
    const c = await createCommunity({ db: db() }, { createdBy: owner.id });
    const m = await addMember({ db: db() }, { communityId: c.id, userId: member.id });
    const before = await dbChecksum();
    const join = await postForm("/communities?index", { intent: "join", communityId: c.id }, { cookie: member.cookie });
    expect(toastOf(join)).toEqual({
      title: "Error",
      description: "You are already a member of this community.",
      type: "error",
    });
    const promote = await postForm(
      `/communities/${c.id}`,
      { intent: "promote", memberId: m.id },
      { cookie: member.cookie },
    );
    expect(promote.status).toBe(403);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
  });
});

describe("not-found pages answer 404 with their own texts, inside the signed-in layout", () => {
  it("ride, completion, booking and community; an unknown chat is the general Page Not Found", async () => {
    const user = await signedInUser();
    const pages: [string, (typeof NOT_FOUND)[keyof typeof NOT_FOUND]][] = [
      ["/rides/nope", NOT_FOUND.ride],
      ["/rides/nope/completion", NOT_FOUND.completion],
      ["/booking-confirmation/nope", NOT_FOUND.booking],
      ["/communities/nope", NOT_FOUND.community],
    ];
    expect(NOT_FOUND.ride.title).toBe("Ride Not Found");
    expect(NOT_FOUND.booking.title).toBe("Booking not found");
    expect(NOT_FOUND.community.title).toBe("Community not found");
    for (const [path, page] of pages) {
      const res = await get(path, { cookie: user.cookie });
      expect(res.status, path).toBe(404);
      const html = await res.text();
      expect(html).toContain(`>${page.title}</h1>`);
      expect(html).toContain(page.message);
      expect(html).toMatch(new RegExp(`href="${page.back.href}"[^>]*>${page.back.label}<`));
      expect(html, `${path} keeps the app's navigation`).toContain('aria-label="Dashboard"');
    }
    const chat = await get("/dashboard/messages?c=nosuchchat", { cookie: user.cookie });
    expect(chat.status).toBe(404);
    expect(await chat.text()).toContain("Page Not Found");
  });
});

describe("the action wing (ADR 0042): one runner, one error table", () => {
  const raw = (glob: Record<string, unknown>) => glob as Record<string, string>;
  const routes = raw(
    import.meta.glob("../../app/routes/*.{ts,tsx}", { query: "?raw", import: "default", eager: true }),
  );
  const intents = raw(import.meta.glob("../../app/intents/*.ts", { query: "?raw", import: "default", eager: true }));
  const models = raw(import.meta.glob("../../app/models/*.ts", { query: "?raw", import: "default", eager: true }));
  const utils = raw(import.meta.glob("../../app/utils/**/*.ts", { query: "?raw", import: "default", eager: true }));
  const offenders = (files: Record<string, string>, re: RegExp) =>
    Object.entries(files)
      .filter(([, src]) => re.test(src))
      .map(([path]) => path.split("/app/")[1]);

  it("no route or intent handler catches a model error or publishes by hand; models never import intents", () => {
    const catchesModelError = /isModelError|instanceof (NotFound|Forbidden|Conflict)Error|orToast|orFormError/;
    expect(offenders(routes, catchesModelError)).toEqual([]);
    expect(offenders(intents, catchesModelError)).toEqual([]);
    // The runner tells the handler's audience; nobody else calls publishChange.
    expect(offenders(routes, /publishChange/)).toEqual([]);
    expect(offenders(intents, /publishChange\(/)).toEqual(["intents/run.server.ts"]);
    expect(offenders(models, /from "(~|\.\.)\/intents\//)).toEqual([]);
    expect(offenders(utils, /from "(~|\.\.)\/intents\//)).toEqual([]);
    // The intent handlers live in app/intents, not app/utils.
    expect(Object.keys(utils).filter((p) => /-actions?\.server\.ts$|utils\/onboarding\.server\.ts$/.test(p))).toEqual(
      [],
    );
  });

  it("every route with an action hands its form to app/intents (sign-in and token pages keep their own)", () => {
    const own = ["_public.login.tsx", "_public.unsubscribe.tsx", "auth.google.tsx", "logout.tsx"];
    const withAction = Object.entries(routes).filter(([, src]) => /export async function action\b/.test(src));
    expect(withAction.length).toBeGreaterThan(20);
    const outside = withAction.filter(([, src]) => !/from "~\/intents\//.test(src)).map(([p]) => p.split("/").pop()!);
    expect(outside.sort()).toEqual(own.sort());
  });
});
