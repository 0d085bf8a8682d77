// Issue 16, item 1: a community joined by a verified work e-mail address. An admin sets the
// domain; a member asks for a one-time code for their work address (sent through the outbox
// to that address), enters it and is a member at once with the verified address (private to
// them) and domain (the badge, on rides and requests) on their membership. Codes are hashed at
// rest, live 10 minutes, allow 5 tries, and a new one kills the old.
import { env } from "../support/env";
import { describe, expect, it, onTestFinished } from "vitest";
import { addMember, createCommunity, createRide, createRideRequest } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import {
  CODE_DEAD,
  CODE_EXPIRED,
  CODE_TTL_MS,
  NO_CODE,
  NOT_DOMAIN_JOIN,
  requestWorkEmailCode,
  verifyWorkEmailCode,
  wrongCode,
  wrongDomain,
} from "~/models/work-email.server";
import { DOMAIN_FREE_MAIL } from "~/domain/work-email";
import { deliverOutbox } from "~/models/outbox/deliver.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, get, postForm, signedInUser } from "../support/worker";

const post = (communityId: string, cookie: string, fields: Record<string, string>) =>
  postForm(`/communities/${communityId}`, fields, { cookie });
const textOf = async (res: Response) =>
  (await res.text())
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

async function world() {
  const admin = await signedInUser({ fullName: "Anita Admin", email: "anita@example.test" });
  const community = await createCommunity(
    { db: db() },
    { createdBy: admin.id, name: "Infosys EC Pool", type: "workplace" },
  );
  const res = await post(community.id, admin.cookie, { intent: "set-email-domain", domain: " @Infosys.COM " });
  expect(toastOf(res)).toMatchObject({
    title: "Join Rule Updated",
    description: "People join by verifying an address at @infosys.com.",
  });
  const rahul = await signedInUser({ fullName: "Rahul Verma", email: "rahul.personal@example.test" });
  return { admin, community, rahul };
}

async function membership(communityId: string, userId: string) {
  return env.DB.prepare(
    "SELECT status, verified_email, verified_domain FROM community_members WHERE community_id = ? AND user_id = ?",
  )
    .bind(communityId, userId)
    .first<{ status: string; verified_email: string | null; verified_domain: string | null }>();
}
async function memberCount(communityId: string) {
  return (await env.DB.prepare("SELECT member_count FROM communities WHERE id = ?")
    .bind(communityId)
    .first<{ member_count: number }>())!.member_count;
}

/** The code in the newest e-mail to `address` (from the local mail sink). */
async function codeMailedTo(address: string) {
  const mail = await env.DB.prepare(
    "SELECT subject, text_body, html_body FROM mail_sink WHERE to_address = ? ORDER BY created_at DESC, rowid DESC LIMIT 1",
  )
    .bind(address)
    .first<{ subject: string; text_body: string; html_body: string }>();
  if (!mail) throw new Error(`no e-mail to ${address}`);
  const code = mail.text_body.match(/^(\d{6})$/m)?.[1];
  if (!code) throw new Error(`no code in:\n${mail.text_body}`);
  return { code, mail };
}

const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("setting the work e-mail domain", () => {
  it("an admin sets it (lower case, audited); free mail and non-domains are refused with a message; non-admins cannot", async () => {
    const { admin, community, rahul } = await world();
    const row = await env.DB.prepare("SELECT join_mode, email_domain FROM communities WHERE id = ?")
      .bind(community.id)
      .first();
    expect(row).toEqual({ join_mode: "domain", email_domain: "infosys.com" });
    const log = await env.DB.prepare("SELECT action, detail FROM community_audit_log WHERE community_id = ?")
      .bind(community.id)
      .all();
    expect(log.results).toEqual([{ action: "rules", detail: "join: domain infosys.com" }]);
    const invalid = "e-mail domain, such as infosys.com";
    for (const [domain, message] of [
      ["gmail.com", DOMAIN_FREE_MAIL.slice(0, 40)],
      ["Rediffmail.com", DOMAIN_FREE_MAIL.slice(0, 40)],
      ["infosys", invalid],
      ["rahul@infosys.com", invalid],
      ["-bad-.com", invalid],
    ]) {
      const before = await dbChecksum();
      const res = await postForm(
        `/communities/${community.id}?tab=moderation`,
        { intent: "set-email-domain", domain },
        { cookie: admin.cookie },
      );
      expect(res.status, domain).toBe(400);
      expect(await textOf(res), domain).toContain(message);
      expect(changedTables(before, await dbChecksum())).toEqual([]);
    }
    // A plain member may not.
    await addMember({ db: db() }, { communityId: community.id, userId: rahul.id });
    const before = await dbChecksum();
    expect((await post(community.id, rahul.cookie, { intent: "set-email-domain", domain: "wipro.com" })).status).toBe(
      403,
    );
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    // The page says how to join, and offers the code form instead of a Join button.
    const stranger = await signedInUser();
    const page = await textOf(await get(`/communities/${community.id}`, { cookie: stranger.cookie }));
    expect(page).toContain("Work e-mail: members verify an address at @infosys.com");
    expect(page).toContain("Join with your work e-mail");
    expect(page).not.toMatch(/>\s*Join\s*</);
  });
});

describe("joining with a one-time code", () => {
  it("the code goes through the outbox to the work address; the right code joins at once; the address is private, the badge is not", async () => {
    const { admin, community, rahul } = await world();
    const res = await post(community.id, rahul.cookie, {
      intent: "work-email-code",
      email: " Rahul.Verma@Infosys.com ",
    });
    expect(toastOf(res)).toMatchObject({
      title: "Code Sent",
      description: "We e-mailed a 6-digit code to rahul.verma@infosys.com. It works for 10 minutes.",
    });
    const outbox = await env.DB.prepare("SELECT channel, kind, status FROM outbox WHERE user_id = ?")
      .bind(rahul.id)
      .all();
    expect(outbox.results).toEqual([{ channel: "email", kind: "work_email_code", status: "sent" }]);
    // Sent to the work address, not to the account's own e-mail.
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM mail_sink WHERE to_address = ?")
        .bind("rahul.personal@example.test")
        .first(),
    ).toEqual({ n: 0 });
    const { code, mail } = await codeMailedTo("rahul.verma@infosys.com");
    expect(mail.subject).toBe(`Your LoopRide code for Infosys EC Pool: ${code}`);
    expect(mail.html_body).toContain(code);
    // The page shows where the code went, not the code.
    const waiting = await (await get(`/communities/${community.id}`, { cookie: rahul.cookie })).text();
    expect(waiting).toContain("Code sent to");
    expect(waiting).not.toContain(code);

    const joined = await post(community.id, rahul.cookie, { intent: "work-email-verify", code });
    expect(toastOf(joined)).toMatchObject({
      title: "Welcome!",
      description: "You verified your @infosys.com address and joined Infosys EC Pool.",
    });
    expect(await membership(community.id, rahul.id)).toEqual({
      status: "approved",
      verified_email: "rahul.verma@infosys.com",
      verified_domain: "infosys.com",
    });
    expect(await memberCount(community.id)).toBe(2);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM community_email_codes").first()).toEqual({ n: 0 });
    // Used: the same code again admits nothing more.
    expect(toastOf(await post(community.id, rahul.cookie, { intent: "work-email-verify", code }))).toMatchObject({
      type: "error",
      description: NO_CODE,
    });

    const own = await textOf(await get(`/communities/${community.id}`, { cookie: rahul.cookie }));
    expect(own).toContain("You verified rahul.verma@infosys.com");
    expect(own).toContain("Verified infosys.com");
    const adminView = await get(`/communities/${community.id}`, { cookie: admin.cookie });
    const adminHtml = await adminView.text();
    expect(adminHtml).toContain("Verified infosys.com");
    expect(adminHtml).not.toContain("rahul.verma@infosys.com");
  });

  it("stores only a hash: the code is in no D1 column (outside the local mail sink, which stands in for the inbox)", async () => {
    const { community, rahul } = await world();
    await post(community.id, rahul.cookie, { intent: "work-email-code", email: "rahul@infosys.com" });
    const { code } = await codeMailedTo("rahul@infosys.com");
    const stored = await env.DB.prepare("SELECT code_hash FROM community_email_codes").first<{ code_hash: string }>();
    expect(stored!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    const tables = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT IN ('d1_migrations', 'mail_sink')",
    ).all<{ name: string }>();
    const token = new RegExp(`(^|[^0-9])${code}([^0-9]|$)`);
    const hits: string[] = [];
    for (const { name } of tables.results) {
      const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all<Record<string, unknown>>();
      for (const r of rows.results)
        for (const [k, v] of Object.entries(r)) if (v !== null && token.test(String(v))) hits.push(`${name}.${k}`);
    }
    expect(hits).toEqual([]);
  });

  it("wrong codes count: after 5 tries the code is dead, even the right one is refused", async () => {
    const { community, rahul } = await world();
    await post(community.id, rahul.cookie, { intent: "work-email-code", email: "rahul@infosys.com" });
    const { code } = await codeMailedTo("rahul@infosys.com");
    for (let i = 1; i <= 5; i++) {
      const res = await post(community.id, rahul.cookie, { intent: "work-email-verify", code: otherCode(code) });
      expect(toastOf(res), `try ${i}`).toMatchObject({ type: "error", description: wrongCode(5 - i) });
    }
    const before = await dbChecksum();
    const sixth = await post(community.id, rahul.cookie, { intent: "work-email-verify", code });
    expect(toastOf(sixth)).toMatchObject({ type: "error", description: CODE_DEAD });
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    expect(await membership(community.id, rahul.id)).toBeNull();
    // A malformed code is a 400 that counts nothing.
    const bad = await post(community.id, rahul.cookie, { intent: "work-email-verify", code: "12ab" });
    expect(bad.status).toBe(400);
    expect(await textOf(bad)).toContain("Enter the 6-digit code from the e-mail");
  });

  it("concurrent tries: at most 5 are counted; two right answers at once make one membership", async () => {
    const { community, rahul } = await world();
    await post(community.id, rahul.cookie, { intent: "work-email-code", email: "rahul@infosys.com" });
    const { code } = await codeMailedTo("rahul@infosys.com");
    const ctx = { db: db(), env };
    const wrong = await Promise.allSettled(
      Array.from({ length: 8 }, () => verifyWorkEmailCode(ctx, rahul.id, community.id, otherCode(code))),
    );
    expect(wrong.every((r) => r.status === "rejected")).toBe(true);
    expect(await env.DB.prepare("SELECT attempts FROM community_email_codes").first()).toEqual({ attempts: 5 });
    await expect(verifyWorkEmailCode(ctx, rahul.id, community.id, code)).rejects.toThrow(CODE_DEAD);

    const asha = await signedInUser();
    await requestWorkEmailCode(ctx, asha.id, community.id, "asha@infosys.com");
    await deliverOutbox(ctx, { push: null });
    const right = (await codeMailedTo("asha@infosys.com")).code;
    const both = await Promise.allSettled([
      verifyWorkEmailCode(ctx, asha.id, community.id, right),
      verifyWorkEmailCode(ctx, asha.id, community.id, right),
    ]);
    expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM community_members WHERE community_id = ? AND user_id = ?")
        .bind(community.id, asha.id)
        .first(),
    ).toEqual({ n: 1 });
    expect(await memberCount(community.id)).toBe(2);
  });

  it("a code expires after 10 minutes", async () => {
    const { community, rahul } = await world();
    const ctx = { db: db(), env };
    const t0 = Date.now();
    await requestWorkEmailCode(ctx, rahul.id, community.id, "rahul@infosys.com", t0);
    await deliverOutbox(ctx, { now: t0, push: null });
    const { code } = await codeMailedTo("rahul@infosys.com");
    await expect(verifyWorkEmailCode(ctx, rahul.id, community.id, code, t0 + CODE_TTL_MS)).rejects.toThrow(
      CODE_EXPIRED,
    );
    expect(await membership(community.id, rahul.id)).toBeNull();
    // Just inside the 10 minutes it works.
    await expect(verifyWorkEmailCode(ctx, rahul.id, community.id, code, t0 + CODE_TTL_MS - 1)).resolves.toMatchObject({
      domain: "infosys.com",
    });
  });

  it("a new code kills the old one", async () => {
    const { community, rahul } = await world();
    await post(community.id, rahul.cookie, { intent: "work-email-code", email: "rahul@infosys.com" });
    const first = (await codeMailedTo("rahul@infosys.com")).code;
    await post(community.id, rahul.cookie, { intent: "work-email-code", email: "rahul@infosys.com" });
    const second = (await codeMailedTo("rahul@infosys.com")).code;
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM mail_sink WHERE to_address = 'rahul@infosys.com'").first(),
    ).toEqual({ n: 2 });
    if (first !== second) {
      const old = await post(community.id, rahul.cookie, { intent: "work-email-verify", code: first });
      expect(toastOf(old)).toMatchObject({ type: "error", description: wrongCode(4) });
    }
    expect(toastOf(await post(community.id, rahul.cookie, { intent: "work-email-verify", code: second }))?.title).toBe(
      "Welcome!",
    );
  });

  it("refuses with a clear message and changes nothing: an address at another domain, a community not joined by e-mail, a code of someone else", async () => {
    const { admin, community, rahul } = await world();
    for (const email of ["rahul@gmail.com", "rahul@infosys.com.evil.test", "rahul@notinfosys.com"]) {
      const before = await dbChecksum();
      const res = await post(community.id, rahul.cookie, { intent: "work-email-code", email });
      expect(toastOf(res), email).toMatchObject({ type: "error", description: wrongDomain("infosys.com") });
      expect(changedTables(before, await dbChecksum()), email).toEqual([]);
    }
    // A subdomain of the workplace's domain is the workplace.
    expect(
      toastOf(await post(community.id, rahul.cookie, { intent: "work-email-code", email: "rahul@blr.infosys.com" }))
        ?.title,
    ).toBe("Code Sent");
    const { code } = await codeMailedTo("rahul@blr.infosys.com");
    // Someone else cannot use Rahul's code: codes belong to the person who asked.
    const mallory = await signedInUser();
    const before = await dbChecksum();
    expect(toastOf(await post(community.id, mallory.cookie, { intent: "work-email-verify", code }))).toMatchObject({
      type: "error",
      description: NO_CODE,
    });
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    // A visitor is sent to sign in.
    expect(
      (
        await postForm(`/communities/${community.id}`, { intent: "work-email-code", email: "x@infosys.com" })
      ).headers.get("Location"),
    ).toMatch(/^\/login/);
    // A moderated community has no codes.
    const plain = await createCommunity({ db: db() }, { createdBy: admin.id });
    expect(
      toastOf(await post(plain.id, rahul.cookie, { intent: "work-email-code", email: "rahul@infosys.com" })),
    ).toMatchObject({ type: "error", description: NOT_DOMAIN_JOIN });
    // The plain Join button explains the rule instead of asking a moderator.
    expect(toastOf(await post(community.id, mallory.cookie, { intent: "join" }))).toMatchObject({ type: "error" });
    expect(await membership(community.id, mallory.id)).toBeNull();
  });

  it("rate-limited: the sixth code within an hour is refused", async () => {
    const { community, rahul } = await world();
    for (let i = 0; i < 5; i++)
      expect(
        toastOf(await post(community.id, rahul.cookie, { intent: "work-email-code", email: "rahul@infosys.com" }))
          ?.title,
      ).toBe("Code Sent");
    const res = await post(community.id, rahul.cookie, { intent: "work-email-code", email: "rahul@infosys.com" });
    expect(toastOf(res)).toMatchObject({
      type: "error",
      description: "You have asked for too many codes. Please wait an hour and try again.",
    });
  });

  it("a changed domain keeps verified members and their badge's domain; a code for the old domain admits nobody", async () => {
    const { admin, community, rahul } = await world();
    await post(community.id, rahul.cookie, { intent: "work-email-code", email: "rahul@infosys.com" });
    await post(community.id, rahul.cookie, {
      intent: "work-email-verify",
      code: (await codeMailedTo("rahul@infosys.com")).code,
    });
    const asha = await signedInUser();
    await post(community.id, asha.cookie, { intent: "work-email-code", email: "asha@infosys.com" });
    const ashaCode = (await codeMailedTo("asha@infosys.com")).code;

    expect(
      toastOf(await post(community.id, admin.cookie, { intent: "set-email-domain", domain: "edgeverve.com" }))?.title,
    ).toBe("Join Rule Updated");
    expect(await membership(community.id, rahul.id)).toMatchObject({
      status: "approved",
      verified_domain: "infosys.com",
    });
    expect(
      toastOf(await post(community.id, asha.cookie, { intent: "work-email-verify", code: ashaCode })),
    ).toMatchObject({ type: "error" });
    expect(await membership(community.id, asha.id)).toBeNull();
    // Rahul's ride in the community still shows the domain he verified.
    const ride = await createRide(
      { db: db() },
      { driverId: rahul.id, communityId: community.id, date: addDays(istDate(), 2) },
    );
    expect(await textOf(await get(`/rides/${ride.id}`, { cookie: admin.cookie }))).toContain("Verified infosys.com");
  });
});

describe("the workplace badge", () => {
  it("shows on Discover cards, the ride page's driver and the request card the driver sees", async () => {
    const { admin, community, rahul } = await world();
    await post(community.id, rahul.cookie, { intent: "work-email-code", email: "rahul@infosys.com" });
    await post(community.id, rahul.cookie, {
      intent: "work-email-verify",
      code: (await codeMailedTo("rahul@infosys.com")).code,
    });
    const communityRide = await createRide(
      { db: db() },
      {
        driverId: rahul.id,
        communityId: community.id,
        date: addDays(istDate(), 2),
        fromLocation: "Electronic City",
        toLocation: "Infosys Gate 1",
      },
    );
    const publicRide = await createRide(
      { db: db() },
      { driverId: rahul.id, date: addDays(istDate(), 3), fromLocation: "HSR Layout", toLocation: "Koramangala" },
    );
    const unverified = await signedInUser({ fullName: "Uma Unverified" });
    await addMember({ db: db() }, { communityId: community.id, userId: unverified.id });
    const plainRide = await createRide(
      { db: db() },
      { driverId: unverified.id, communityId: community.id, date: addDays(istDate(), 2) },
    );

    // Discover, as another member: the domain on the community ride, "Verified workplace" on the public one.
    const discover = await (await get("/rides", { cookie: admin.cookie })).text();
    const card = (id: string) =>
      discover.slice(
        discover.lastIndexOf('data-testid="ride-card"', discover.indexOf(`/rides/${id}"`)),
        discover.indexOf(`/rides/${id}"`),
      );
    expect(card(communityRide.id)).toContain("Verified infosys.com");
    expect(card(publicRide.id)).toContain("Verified workplace");
    expect(card(publicRide.id)).not.toContain("infosys.com");
    expect(card(plainRide.id)).not.toContain("Verified");

    // The ride page's driver.
    expect(await textOf(await get(`/rides/${communityRide.id}`, { cookie: admin.cookie }))).toContain(
      "Verified infosys.com",
    );
    expect(await textOf(await get(`/rides/${plainRide.id}`, { cookie: admin.cookie }))).not.toContain("Verified ");

    // A verified rider's request, as its driver sees it (ride page and Manage Bookings).
    await createRideRequest({ db: db() }, { rideId: plainRide.id, riderId: rahul.id, status: "pending" });
    const driverView = await textOf(await get(`/rides/${plainRide.id}`, { cookie: unverified.cookie }));
    expect(driverView).toContain("Rahul Verma");
    expect(driverView).toContain("Verified infosys.com");
    expect(await textOf(await get("/dashboard/my-rides?tab=manage", { cookie: unverified.cookie }))).toContain(
      "Verified infosys.com",
    );
  });
});

describe("migration 0018 (outbox rebuilt for the new kind)", () => {
  it("rebuilding outbox over real rows keeps every row, its indexes and the notifications trigger, which still queues into it", async () => {
    const { community, rahul } = await world();
    await post(community.id, rahul.cookie, { intent: "work-email-code", email: "rahul@infosys.com" });
    // A community decision notification: the trigger queues its e-mail and push rows.
    await env.DB.prepare(
      "INSERT INTO notifications (id, user_id, type, title, message, data, read, created_at) VALUES ('n1', ?, 'community', 'Request Approved', 'Welcome', json_object('community_id', ?), 0, 1)",
    )
      .bind(rahul.id, community.id)
      .run();
    const rows = async () => (await env.DB.prepare("SELECT * FROM outbox ORDER BY id").all()).results;
    // The kinds allowed are 0018's own list; later migrations (0036: emergency_alert) widen it.
    const schemaOf = async () =>
      (
        await env.DB.prepare(
          "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE (tbl_name = 'outbox' OR type = 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY name",
        ).all<{ type: string; name: string; sql: string | null }>()
      ).results.map((r) => ({ ...r, sql: r.sql?.replace(/"outbox_kind" CHECK\([^)]*\)\)/, '"outbox_kind" CHECK(…)') }));
    const before = await rows();
    expect(before.map((r) => r.kind).sort()).toEqual(["notification", "notification", "work_email_code"]);
    const schemaBefore = await schemaOf();
    const m = env.TEST_MIGRATIONS.find((x) => x.name.startsWith("0018_"));
    const rebuild = m!.queries.filter((q) => /`(__copy_)?outbox`/.test(q));
    expect(rebuild.length).toBe(8);
    const current = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE name = 'outbox'").first<{
      sql: string;
    }>();
    await env.DB.batch(rebuild.map((q) => env.DB.prepare(q)));
    onTestFinished(async () => {
      // The test files share one database (ADR 0043): give later files today's outbox back, as the
      // newest migration that rebuilt it left it, not 0018's narrower kind list.
      const last = [...env.TEST_MIGRATIONS]
        .reverse()
        .find((x) => x.queries.some((q) => /CREATE TABLE `outbox`/.test(q)));
      await env.DB.batch(last!.queries.filter((q) => /`(__copy_)?outbox`/.test(q)).map((q) => env.DB.prepare(q)));
      const restored = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE name = 'outbox'").first();
      expect(restored).toEqual(current);
    });
    expect(await rows()).toEqual(before);
    expect(await schemaOf()).toEqual(schemaBefore);
    expect(schemaBefore.some((r) => r.name === "notifications_outbox")).toBe(true);
    await env.DB.prepare(
      "INSERT INTO notifications (id, user_id, type, title, message, data, read, created_at) VALUES ('n2', ?, 'community', 'Request Approved', 'Welcome', json_object('community_id', ?), 0, 2)",
    )
      .bind(rahul.id, community.id)
      .run();
    expect((await rows()).length).toBe(before.length + 2);
    expect(await env.DB.prepare("PRAGMA foreign_key_check").all()).toMatchObject({ results: [] });
  });
});
