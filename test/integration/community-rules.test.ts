// Issue 16, item 1: join rules per community, set by its admins: open (join at once),
// moderated (a moderator decides, the default), invite (a revocable link). Rules are shown on
// the community page; changing one never changes existing members or pending requests.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity } from "../../db/factories";
import { requestToJoin } from "~/models/communities.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, get, postForm, signedInUser } from "../support/worker";

const ctx = () => ({ db: db() });
const post = (communityId: string, cookie: string, fields: Record<string, string>) =>
  postForm(`/communities/${communityId}`, fields, { cookie });

async function world() {
  const admin = await signedInUser({ fullName: "Anita Admin" });
  const mod = await signedInUser({ fullName: "Manoj Moderator" });
  const member = await signedInUser({ fullName: "Meera Member" });
  const community = await createCommunity(ctx(), {
    createdBy: admin.id,
    name: "Infosys Electronic City Pool",
    type: "workplace",
  });
  await addMember(ctx(), { communityId: community.id, userId: mod.id, role: "moderator" });
  await addMember(ctx(), { communityId: community.id, userId: member.id });
  return { admin, mod, member, community };
}

async function row(communityId: string) {
  return env.DB.prepare("SELECT join_mode, invite_token, member_count FROM communities WHERE id = ?")
    .bind(communityId)
    .first<{ join_mode: string; invite_token: string | null; member_count: number }>();
}
async function statusOf(communityId: string, userId: string) {
  const r = await env.DB.prepare("SELECT status FROM community_members WHERE community_id = ? AND user_id = ?")
    .bind(communityId, userId)
    .first<{ status: string }>();
  return r?.status ?? null;
}

describe("join rules", () => {
  it("moderated by default; an admin opens it: a newcomer joins at once; a pending request stays pending; logged", async () => {
    const w = await world();
    expect((await row(w.community.id))!.join_mode).toBe("moderated");
    const waiting = await signedInUser();
    await post(w.community.id, waiting.cookie, { intent: "join" });
    expect(await statusOf(w.community.id, waiting.id)).toBe("pending");

    const res = await post(w.community.id, w.admin.cookie, { intent: "set-join-mode", mode: "open" });
    expect(toastOf(res)?.title).toBe("Join Rule Updated");
    expect((await row(w.community.id))!.join_mode).toBe("open");
    expect(await statusOf(w.community.id, waiting.id)).toBe("pending");

    const newcomer = await signedInUser();
    const join = await post(w.community.id, newcomer.cookie, { intent: "join" });
    expect(toastOf(join)).toMatchObject({ title: "Welcome!", description: "You joined Infosys Electronic City Pool." });
    expect(await statusOf(w.community.id, newcomer.id)).toBe("approved");
    expect((await row(w.community.id))!.member_count).toBe(4);
    // From the list's Join button too.
    const other = await signedInUser();
    const fromList = await postForm(
      "/communities",
      { intent: "join", communityId: w.community.id },
      { cookie: other.cookie },
    );
    expect(toastOf(fromList)?.title).toBe("Welcome!");

    const page = (await (await get(`/communities/${w.community.id}`, { cookie: newcomer.cookie })).text()).replace(
      /<!-- -->|<[^>]+>/g,
      " ",
    );
    expect(page).toContain("Open: anyone can join at once");
    const log = await env.DB.prepare("SELECT action, detail FROM community_audit_log WHERE community_id = ?")
      .bind(w.community.id)
      .all();
    expect(log.results).toEqual([{ action: "rules", detail: "join: open" }]);
  });

  it("twenty people joining an open community at once: every one approved, member_count exact", async () => {
    const w = await world();
    await post(w.community.id, w.admin.cookie, { intent: "set-join-mode", mode: "open" });
    const people = await Promise.all(Array.from({ length: 20 }, () => signedInUser()));
    const results = await Promise.allSettled(
      people.flatMap((p) => [requestToJoin(ctx(), p.id, w.community.id), requestToJoin(ctx(), p.id, w.community.id)]),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(20);
    const approved = await env.DB.prepare(
      "SELECT count(*) AS n FROM community_members WHERE community_id = ? AND status = 'approved'",
    )
      .bind(w.community.id)
      .first<{ n: number }>();
    expect(approved!.n).toBe(23);
    expect((await row(w.community.id))!.member_count).toBe(23);
  });

  it("by invitation: only the current link admits (at once); replacing or revoking it stops the old one; the link is shown to admins only", async () => {
    const w = await world();
    await post(w.community.id, w.admin.cookie, { intent: "set-join-mode", mode: "invite" });
    const first = (await row(w.community.id))!.invite_token!;
    expect(first).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const adminPage = await (
      await get(`/communities/${w.community.id}?tab=moderation`, { cookie: w.admin.cookie })
    ).text();
    expect(adminPage).toContain(`?invite=${first}`);
    for (const viewer of [w.mod, w.member]) {
      const html = await (await get(`/communities/${w.community.id}?tab=moderation`, { cookie: viewer.cookie })).text();
      expect(html).not.toContain(first);
    }

    const a = await signedInUser();
    for (const fields of [{ intent: "join" }, { intent: "join", invite: "not-the-token" }] as Record<
      string,
      string
    >[]) {
      const before = await dbChecksum();
      const res = await post(w.community.id, a.cookie, fields);
      expect(toastOf(res)?.type).toBe("error");
      expect(changedTables(before, await dbChecksum())).toEqual([]);
    }
    // The link's page carries the token in its Join form.
    const linkPage = await (await get(`/communities/${w.community.id}?invite=${first}`, { cookie: a.cookie })).text();
    expect(linkPage).toContain(`name="invite" value="${first}"`);
    expect(toastOf(await post(w.community.id, a.cookie, { intent: "join", invite: first }))?.title).toBe("Welcome!");
    expect(await statusOf(w.community.id, a.id)).toBe("approved");

    await post(w.community.id, w.admin.cookie, { intent: "invite-reset" });
    const second = (await row(w.community.id))!.invite_token!;
    expect(second).not.toBe(first);
    const b = await signedInUser();
    expect(toastOf(await post(w.community.id, b.cookie, { intent: "join", invite: first }))?.description).toContain(
      "no longer valid",
    );
    expect(await statusOf(w.community.id, b.id)).toBeNull();
    expect(toastOf(await post(w.community.id, b.cookie, { intent: "join", invite: second }))?.title).toBe("Welcome!");

    await post(w.community.id, w.admin.cookie, { intent: "invite-revoke" });
    expect((await row(w.community.id))!.invite_token).toBeNull();
    const c = await signedInUser();
    expect(toastOf(await post(w.community.id, c.cookie, { intent: "join", invite: second }))?.type).toBe("error");
    expect(await statusOf(w.community.id, c.id)).toBeNull();
    const log = await env.DB.prepare(
      "SELECT action, detail FROM community_audit_log WHERE community_id = ? ORDER BY created_at, rowid",
    )
      .bind(w.community.id)
      .all();
    expect(log.results).toEqual([
      { action: "rules", detail: "join: invite" },
      { action: "invite", detail: "new link" },
      { action: "invite", detail: "link revoked" },
    ]);
  });

  it("only admins change the rules: moderators, members, outsiders and visitors are refused and nothing changes", async () => {
    const w = await world();
    const outsider = await signedInUser();
    for (const fields of [
      { intent: "set-join-mode", mode: "open" },
      { intent: "invite-reset" },
      { intent: "invite-revoke" },
    ] as Record<string, string>[]) {
      for (const cookie of [w.mod.cookie, w.member.cookie, outsider.cookie, ""]) {
        const before = await dbChecksum();
        const res = await postForm(`/communities/${w.community.id}`, fields, cookie ? { cookie } : {});
        expect(res.status, `${fields.intent} ${cookie.slice(0, 12)}`).toBe(403);
        expect(changedTables(before, await dbChecksum())).toEqual([]);
      }
    }
    const bad = await post(w.community.id, w.admin.cookie, { intent: "set-join-mode", mode: "domain" });
    expect(bad.status).toBe(400);
  });
});
