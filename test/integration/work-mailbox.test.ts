// Issue 34, finding 8: a+1@ and a+2@ of one mailbox verified two accounts in one community,
// and co.in (a public suffix, which anyone can register under) was accepted as a work domain.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createCommunity } from "../../db/factories";
import { DOMAIN_PUBLIC_SUFFIX, normalizeMailbox } from "~/domain/work-email";
import { ADDRESS_TAKEN } from "~/models/work-email.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, postForm, signedInUser } from "../support/worker";

const post = (communityId: string, cookie: string, fields: Record<string, string>) =>
  postForm(`/communities/${communityId}`, fields, { cookie });

async function codeMailedTo(address: string) {
  const mail = await env.DB.prepare(
    "SELECT text_body FROM mail_sink WHERE to_address = ? ORDER BY created_at DESC, rowid DESC LIMIT 1",
  )
    .bind(address)
    .first<{ text_body: string }>();
  return mail!.text_body.match(/^(\d{6})$/m)![1];
}

async function domainCommunity(domain = "infosys.com") {
  const admin = await signedInUser({ fullName: "Anita Admin" });
  const community = await createCommunity(
    { db: db() },
    { createdBy: admin.id, name: "Infosys EC Pool", type: "workplace" },
  );
  expect(toastOf(await post(community.id, admin.cookie, { intent: "set-email-domain", domain }))?.title).toBe(
    "Join Rule Updated",
  );
  return { admin, community };
}

describe("one verified member per mailbox", () => {
  it("a+1@ and a+2@ are one mailbox: the second account is refused, at the code and at the database", async () => {
    const { community } = await domainCommunity();
    const first = await signedInUser();
    const second = await signedInUser();
    expect(
      toastOf(await post(community.id, first.cookie, { intent: "work-email-code", email: "Rahul+1@Infosys.com" }))
        ?.title,
    ).toBe("Code Sent");
    // The code goes to the address as typed.
    const code = await codeMailedTo("rahul+1@infosys.com");
    expect(toastOf(await post(community.id, first.cookie, { intent: "work-email-verify", code }))?.title).toBe(
      "Welcome!",
    );
    const row = await env.DB.prepare(
      "SELECT verified_email FROM community_members WHERE community_id = ? AND user_id = ?",
    )
      .bind(community.id, first.id)
      .first<{ verified_email: string }>();
    expect(row?.verified_email).toBe("rahul@infosys.com");
    for (const email of ["rahul+2@infosys.com", "rahul@infosys.com"]) {
      const before = await dbChecksum();
      const res = await post(community.id, second.cookie, { intent: "work-email-code", email });
      expect(toastOf(res), email).toMatchObject({ type: "error", description: ADDRESS_TAKEN });
      expect(changedTables(before, await dbChecksum())).toEqual([]);
    }
    // A row written as typed by any path (or before this rule) is held by the index too.
    const insert = env.DB.prepare(
      "INSERT INTO community_members (id, community_id, user_id, status, role, requested_at, verified_email, verified_domain, verified_at) VALUES ('dup', ?, ?, 'approved', 'member', 1, 'rahul+3@infosys.com', 'infosys.com', 1)",
    ).bind(community.id, second.id);
    await expect(insert.run()).rejects.toThrow(/UNIQUE/);
    // Another mailbox at the domain is fine.
    expect(
      toastOf(await post(community.id, second.cookie, { intent: "work-email-code", email: "asha+pool@infosys.com" }))
        ?.title,
    ).toBe("Code Sent");
  });

  it("normalizeMailbox strips only a +tag of the local part", () => {
    expect(normalizeMailbox(" A+b+c@X.COM ")).toBe("a@x.com");
    expect(normalizeMailbox("a@x+y.com")).toBe("a@x+y.com");
    expect(normalizeMailbox("+a@x.com")).toBe("+a@x.com");
    expect(normalizeMailbox("plain@x.com")).toBe("plain@x.com");
  });
});

describe("a work domain is one organisation's, not a public suffix", () => {
  it("co.in, gov.in, github.io and the like are refused with a message and change nothing; infosys.co.in is fine", async () => {
    const { admin, community } = await domainCommunity("wipro.com");
    for (const domain of ["co.in", "gov.in", "net.in", "github.io", "co.uk"]) {
      const before = await dbChecksum();
      const res = await post(community.id, admin.cookie, { intent: "set-email-domain", domain });
      expect(toastOf(res), domain).toMatchObject({ type: "error", description: DOMAIN_PUBLIC_SUFFIX });
      expect(changedTables(before, await dbChecksum()), domain).toEqual([]);
    }
    expect(
      toastOf(await post(community.id, admin.cookie, { intent: "set-email-domain", domain: "infosys.co.in" }))?.title,
    ).toBe("Join Rule Updated");
    const row = await env.DB.prepare("SELECT email_domain FROM communities WHERE id = ?")
      .bind(community.id)
      .first<{ email_domain: string }>();
    expect(row?.email_domain).toBe("infosys.co.in");
  });
});
