import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity } from "../../db/factories";
import { REPORT_READERS } from "~/intents/safety.server";
import { LIFTED_TITLE, NOT_SUSPENDED } from "~/models/operator-reports.server";
import { ACCOUNT_SUSPENDED } from "~/utils/sign-in.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, get, notificationsFor, postForm, signedInUser } from "../support/worker";

// Issue 37, item 7: a report always reaches someone. One with no shared community (with an
// admin to read it), or an urgent one, goes to LoopRide's operators' queue; operators are
// OPERATOR_EMAILS (vitest.config.ts: operator@loopride.test, second-operator@loopride.test)
// with a confirmed address. The reporter is told who reads it.

const QUEUE = "/operators/reports";
const PASSWORD = "stranger-danger-77";

const operator = (email = "operator@loopride.test") =>
  signedInUser({ fullName: "Olivia Operator", email, emailVerifiedAt: Date.now() });

const report = (from: { cookie: string }, personId: string, reason: string, details = "Followed me after the ride") =>
  postForm(`/people/${personId}`, { intent: "report", reason, details, context: "profile" }, { cookie: from.cookie });

const queueRows = () =>
  env.DB.prepare("SELECT id, reported_id, queue, outcome, handled_at FROM user_reports ORDER BY created_at").all<{
    id: string;
    reported_id: string;
    queue: string;
    outcome: string | null;
    handled_at: number | null;
  }>();

describe("where a report goes, and what its reporter is told", () => {
  it("a report about a stranger reaches the operators' queue, and the reporter is told so", async () => {
    const op = await operator();
    const reporter = await signedInUser({ fullName: "Asha Rao" });
    const stranger = await signedInUser({ fullName: "Sunil Stranger" });
    const res = await report(reporter, stranger.id, "no_show", "Booked three times, never came");
    expect(res.status).toBe(302);
    expect(toastOf(res)).toMatchObject({ title: "Report sent", description: REPORT_READERS.operators });
    expect(toastOf(res)?.description).not.toContain("admins");
    expect((await queueRows()).results).toMatchObject([
      { reported_id: stranger.id, queue: "operators", outcome: null },
    ]);
    // The operator is told, in the app.
    expect(await notificationsFor(op.id)).toMatchObject([{ title: "A report for LoopRide's operators" }]);

    const page = await get(QUEUE, { cookie: op.cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Asha Rao");
    expect(html).toContain("Sunil Stranger");
    expect(html).toContain("Booked three times, never came");
    expect(html).toContain("They share no community.");
  });

  it("between members of a community with an admin: its admins; urgent: the operators as well", async () => {
    const op = await operator();
    const admin = await signedInUser({ fullName: "Anita Admin" });
    const a = await signedInUser({ fullName: "Asha Rao" });
    const b = await signedInUser({ fullName: "Bharat Menon" });
    const c = await signedInUser({ fullName: "Chitra Das" });
    const community = await createCommunity({ db: db() }, { createdBy: admin.id, name: "Koramangala Commuters" });
    for (const u of [a, b, c]) await addMember({ db: db() }, { communityId: community.id, userId: u.id });

    const plain = await report(a, b.id, "no_show");
    expect(toastOf(plain)?.description).toBe(REPORT_READERS.admins);
    const urgent = await report(a, c.id, "unsafe_driving", "Drove at 120 on the ORR");
    expect(toastOf(urgent)?.description).toBe(REPORT_READERS.both);
    expect((await queueRows()).results.map((r) => [r.reported_id, r.queue])).toEqual([
      [b.id, "community"],
      [c.id, "operators"],
    ]);
    const html = await (await get(QUEUE, { cookie: op.cookie })).text();
    expect(html).toContain("Drove at 120 on the ORR");
    expect(html).toContain("Communities they share: Koramangala Commuters");
    expect(html).not.toContain("Bharat Menon");
  });

  it("a shared community whose only admin is the reported person is no reader: the operators are", async () => {
    const admin = await signedInUser({ fullName: "Anita Admin" });
    const a = await signedInUser({ fullName: "Asha Rao" });
    const community = await createCommunity({ db: db() }, { createdBy: admin.id });
    await addMember({ db: db() }, { communityId: community.id, userId: a.id });
    const res = await report(a, admin.id, "fake_profile");
    expect(toastOf(res)?.description).toBe(REPORT_READERS.operators);
  });
});

describe("only operators see and act on the queue", () => {
  it("a member, an unconfirmed holder of an operator's address and a stranger get a 404; signed out, sign in", async () => {
    const reporter = await signedInUser();
    const stranger = await signedInUser({ fullName: "Sunil Stranger" });
    await report(reporter, stranger.id, "harassment");
    const [{ id }] = (await queueRows()).results;
    // Someone suspended, whose suspension nobody but an operator may lift.
    const suspended = await signedInUser({ fullName: "Suma Suspended" });
    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?").bind(Date.now(), suspended.id).run();
    const member = await signedInUser();
    const unconfirmed = await signedInUser({ email: "second-operator@loopride.test", emailVerifiedAt: null });
    for (const who of [member, unconfirmed, reporter, stranger]) {
      const res = await get(QUEUE, { cookie: who.cookie });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("Followed me after the ride");
      const before = await dbChecksum();
      for (const intent of ["warn", "suspend", "close"]) {
        const post = await postForm(QUEUE, { intent, reportId: id }, { cookie: who.cookie });
        expect(post.status).toBe(404);
      }
      const lift = await postForm(QUEUE, { intent: "lift", userId: suspended.id }, { cookie: who.cookie });
      expect(lift.status).toBe(404);
      expect(changedTables(before, await dbChecksum())).toEqual([]);
    }
    const out = await get(QUEUE);
    expect(out.status).toBe(302);
    expect(out.headers.get("Location")).toMatch(/^\/login/);
    // The same person, once the address is confirmed theirs, is the second configured operator.
    await env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE id = ?").bind(Date.now(), unconfirmed.id).run();
    const confirmed = await get(QUEUE, { cookie: unconfirmed.cookie });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("Sunil Stranger");
  });
});

describe("the operators' actions", () => {
  it("warn tells the reported person; close takes the report off the queue", async () => {
    const op = await operator();
    const reporter = await signedInUser();
    const x = await signedInUser({ fullName: "Xavier Warned" });
    const y = await signedInUser({ fullName: "Yamini Closed" });
    await report(reporter, x.id, "harassment");
    await report(reporter, y.id, "other");
    const [rx, ry] = (await queueRows()).results;

    const warned = await postForm(QUEUE, { intent: "warn", reportId: rx.id }, { cookie: op.cookie });
    expect(warned.status).toBe(302);
    expect(toastOf(warned)?.title).toBe("Warning sent");
    expect(await notificationsFor(x.id)).toMatchObject([{ title: "A warning from LoopRide" }]);
    // The reporter's name is never in the warning.
    expect(JSON.stringify(await notificationsFor(x.id, ["message"]))).not.toContain(reporter.id);

    const closed = await postForm(QUEUE, { intent: "close", reportId: ry.id }, { cookie: op.cookie });
    expect(toastOf(closed)?.title).toBe("Report closed");
    expect(await notificationsFor(y.id)).toEqual([]);
    const rows = (await queueRows()).results;
    expect(rows.map((r) => r.outcome)).toEqual(["warned", "closed"]);
    const html = await (await get(QUEUE, { cookie: op.cookie })).text();
    expect(html).not.toContain("Xavier Warned");
    expect(html).not.toContain("Yamini Closed");
    expect(html).toContain("No open reports.");
    // A handled report is not handled twice.
    expect((await postForm(QUEUE, { intent: "suspend", reportId: rx.id }, { cookie: op.cookie })).status).toBe(404);
  });

  it("suspend ends the person's sessions and refuses their sign-in, platform-wide", async () => {
    const op = await operator();
    const reporter = await signedInUser();
    const bad = await signedInUser({
      fullName: "Suresh Suspended",
      email: "suresh@example.test",
      password: PASSWORD,
      pepper: "test-pepper",
    });
    expect((await get("/dashboard", { cookie: bad.cookie })).status).toBe(200);
    await report(reporter, bad.id, "harassment", "Threatening messages");
    const [r] = (await queueRows()).results;
    const res = await postForm(QUEUE, { intent: "suspend", reportId: r.id }, { cookie: op.cookie });
    expect(toastOf(res)?.title).toBe("Account suspended");

    const after = await get("/dashboard", { cookie: bad.cookie });
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toMatch(/^\/login/);
    const sessions = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(bad.id).first();
    expect(sessions).toEqual({ n: 0 });

    const signIn = await postForm("/login", { identifier: "suresh@example.test", password: PASSWORD });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("Location")).toBe("/login");
    expect(toastOf(signIn)?.title).toBe(ACCOUNT_SUSPENDED);
    expect(signIn.headers.get("Set-Cookie") ?? "").not.toMatch(/lr_session=[^;]+;/);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(bad.id).first();
    expect(left).toEqual({ n: 0 });
  });
});

describe("lifting a suspension (ADR 0058)", () => {
  const auditRows = (targetId: string) =>
    env.DB.prepare(
      "SELECT actor_id, action, report_id FROM operator_audit_log WHERE target_user_id = ? ORDER BY created_at, rowid",
    )
      .bind(targetId)
      .all<{ actor_id: string; action: string; report_id: string | null }>();

  it("the queue lists suspended accounts; Lift suspension lets them sign in again, tells them and is recorded", async () => {
    const op = await operator();
    const reporter = await signedInUser();
    const bad = await signedInUser({
      fullName: "Lalit Lifted",
      email: "lalit@example.test",
      emailVerifiedAt: Date.now(),
      password: PASSWORD,
      pepper: "test-pepper",
    });
    await report(reporter, bad.id, "harassment");
    const [r] = (await queueRows()).results;
    await postForm(QUEUE, { intent: "suspend", reportId: r.id }, { cookie: op.cookie });

    const html = await (await get(QUEUE, { cookie: op.cookie })).text();
    expect(html).toContain("Suspended accounts");
    const listed = [...html.matchAll(/data-testid="suspended-account"[\s\S]*?<\/li>/g)].map((m) => m[0]);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toContain("Lalit Lifted");
    expect(listed[0]).toContain("by Olivia Operator");
    expect(listed[0]).toContain(`name="userId" value="${bad.id}"`);
    expect(listed[0]).toContain("Lift suspension");

    const res = await postForm(QUEUE, { intent: "lift", userId: bad.id }, { cookie: op.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(QUEUE);
    expect(toastOf(res)?.title).toBe("Suspension lifted");
    const row = await env.DB.prepare("SELECT suspended_at FROM users WHERE id = ?").bind(bad.id).first();
    expect(row).toEqual({ suspended_at: null });
    expect((await auditRows(bad.id)).results).toEqual([
      { actor_id: op.id, action: "suspend", report_id: r.id },
      { actor_id: op.id, action: "lift_suspension", report_id: null },
    ]);
    // Told in the app and, since they could not sign in to read it, by e-mail.
    expect(await notificationsFor(bad.id)).toMatchObject([{ title: LIFTED_TITLE }]);
    const mail = await env.DB.prepare(
      "SELECT kind, channel, payload FROM outbox WHERE user_id = ? AND channel = 'email'",
    )
      .bind(bad.id)
      .all<{ kind: string; payload: string }>();
    expect(mail.results.map((m) => JSON.parse(m.payload).title)).toEqual([LIFTED_TITLE]);
    expect(await (await get(QUEUE, { cookie: op.cookie })).text()).toContain("No account is suspended.");

    const signIn = await postForm("/login", { identifier: "lalit@example.test", password: PASSWORD });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("Location")).not.toBe("/login");
    expect(signIn.headers.get("Set-Cookie") ?? "").toMatch(/lr_session=[^;]+;/);

    // Lifting again changes nothing and says why.
    const before = await dbChecksum();
    const again = await postForm(QUEUE, { intent: "lift", userId: bad.id }, { cookie: op.cookie });
    expect(toastOf(again)).toMatchObject({ type: "error", description: NOT_SUSPENDED });
    expect(changedTables(before, await dbChecksum())).toEqual([]);
  });
});
