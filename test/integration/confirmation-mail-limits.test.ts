// Issue 34, finding 7: one account could have a confirmation e-mail (greeting its own,
// attacker-chosen name) sent to any unverified address once a minute, forever. Each address
// now gets at most 3 confirmation links a day (sign-up's included) and each account causes at
// most 10 confirmation e-mails a day (links and work-address codes together). A refusal is
// an error toast that says so, and queues nothing.
import { env } from "../support/env";
import { describe, expect, it, vi } from "vitest";
import { createCommunity } from "../../db/factories";
import {
  CONFIRMATION_SENDER_LIMIT,
  CONFIRMATIONS_PER_SENDER,
  VERIFY_ADDRESS_LIMIT,
  VERIFY_MAILS_PER_ADDRESS,
  resendVerification,
} from "~/models/password-resets.server";
import { toastOf } from "../support/rides";
import { db, postForm, signedInUser } from "../support/worker";

const DAY = 24 * 60 * 60_000;

/** The worker reads Date in this isolate: the clock starts at 01:00 UTC tomorrow, away from a day's edge. */
function clockAt(ms: number) {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(ms);
}
const start = () => Math.floor(Date.now() / DAY) * DAY + DAY + 60 * 60_000;

async function outboxRows(userId: string, kind: string) {
  return (await env.DB.prepare("SELECT count(*) AS n FROM outbox WHERE user_id = ? AND kind = ?")
    .bind(userId, kind)
    .first<{ n: number }>())!.n;
}
const resend = (cookie: string) => postForm("/dashboard/profile", { intent: "resend-verification" }, { cookie });

describe("confirmation links per address", () => {
  it(`"send again" is refused after ${VERIFY_MAILS_PER_ADDRESS} links in a day, with a message and no e-mail; the next day it works`, async () => {
    const t0 = start();
    clockAt(t0);
    const user = await signedInUser({ fullName: "Mallory Mailer" });
    for (let i = 0; i < VERIFY_MAILS_PER_ADDRESS; i++) {
      clockAt(t0 + i * 60_000);
      expect(toastOf(await resend(user.cookie))?.title, `link ${i + 1}`).toBe("Confirmation link sent");
    }
    expect(await outboxRows(user.id, "verify_email")).toBe(VERIFY_MAILS_PER_ADDRESS);
    clockAt(t0 + 10 * 60_000);
    const refused = await resend(user.cookie);
    expect(refused.status).toBe(302);
    expect(toastOf(refused)).toMatchObject({
      type: "error",
      title: "No confirmation link sent",
      description: VERIFY_ADDRESS_LIMIT,
    });
    expect(await outboxRows(user.id, "verify_email")).toBe(VERIFY_MAILS_PER_ADDRESS);
    clockAt(t0 + DAY);
    expect(toastOf(await resend(user.cookie))?.title).toBe("Confirmation link sent");
    expect(await outboxRows(user.id, "verify_email")).toBe(VERIFY_MAILS_PER_ADDRESS + 1);
  });

  it("a second click within the minute queues no second e-mail and uses none of the day's links", async () => {
    const t0 = start();
    clockAt(t0);
    const user = await signedInUser();
    await resend(user.cookie);
    expect(toastOf(await resend(user.cookie))?.title).toBe("Confirmation link sent");
    expect(await outboxRows(user.id, "verify_email")).toBe(1);
    for (let i = 1; i < VERIFY_MAILS_PER_ADDRESS; i++) {
      clockAt(t0 + i * 60_000);
      expect(toastOf(await resend(user.cookie))?.title).toBe("Confirmation link sent");
    }
    clockAt(t0 + 10 * 60_000);
    expect(toastOf(await resend(user.cookie))?.description).toBe(VERIFY_ADDRESS_LIMIT);
    expect(await outboxRows(user.id, "verify_email")).toBe(VERIFY_MAILS_PER_ADDRESS);
    // The key holds a hash of the address, never the address.
    const keys = await env.DB.prepare("SELECT key FROM rate_limits").all<{ key: string }>();
    expect(keys.results.some((k) => k.key.includes(user.email!))).toBe(false);
  });

  it("sign-up's link counts, and a new account for an address that had its day's links gets none", async () => {
    const t0 = start();
    clockAt(t0);
    const email = "victim@example.test";
    const signup = (name: string) =>
      postForm("/signup", { fullName: name, identifier: email, password: "a long enough passphrase" });
    expect((await signup("Mallory One")).status).toBe(302);
    const first = (await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: string }>())!
      .id;
    expect(await outboxRows(first, "verify_email")).toBe(1);
    // Two more links by "send again" fill the address's day (the model: the profile page
    // sends a new account to onboarding first).
    for (let i = 1; i < VERIFY_MAILS_PER_ADDRESS; i++)
      await resendVerification({ db: db(), env }, first, t0 + i * 60_000);
    expect(await outboxRows(first, "verify_email")).toBe(VERIFY_MAILS_PER_ADDRESS);
    await expect(resendVerification({ db: db(), env }, first, t0 + 5 * 60_000)).rejects.toThrow(VERIFY_ADDRESS_LIMIT);
    // The account goes (deletion frees the address) and the address signs up again: the
    // account is made, but no fourth link goes to the address today.
    await env.DB.prepare("UPDATE users SET email = NULL, deleted_at = ? WHERE id = ?").bind(Date.now(), first).run();
    clockAt(t0 + 6 * 60_000);
    expect((await signup("Mallory Two")).status).toBe(302);
    const second = (await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: string }>())!
      .id;
    expect(second).not.toBe(first);
    expect(await outboxRows(second, "verify_email")).toBe(0);
  });
});

describe("confirmation e-mails per account", () => {
  it(`an account causes at most ${CONFIRMATIONS_PER_SENDER} a day, links and work codes together, each to a new address`, async () => {
    const t0 = start();
    clockAt(t0);
    const admin = await signedInUser({ fullName: "Anita Admin" });
    const community = await createCommunity(
      { db: db() },
      { createdBy: admin.id, name: "Infosys EC Pool", type: "workplace" },
    );
    await postForm(
      `/communities/${community.id}`,
      { intent: "set-email-domain", domain: "infosys.com" },
      { cookie: admin.cookie },
    );
    const mallory = await signedInUser({ fullName: "Mallory Mailer" });
    const code = (i: number) =>
      postForm(
        `/communities/${community.id}`,
        { intent: "work-email-code", email: `person${i}@infosys.com` },
        { cookie: mallory.cookie },
      );
    expect(toastOf(await resend(mallory.cookie))?.title).toBe("Confirmation link sent");
    // Codes: 5 an hour is the hourly limit, so the day's other 9 take two hours.
    for (let i = 1; i < CONFIRMATIONS_PER_SENDER; i++) {
      clockAt(t0 + (i <= 5 ? 0 : 61 * 60_000) + i * 1000);
      expect(toastOf(await code(i))?.title, `code ${i}`).toBe("Code Sent");
    }
    const sent = await outboxRows(mallory.id, "work_email_code");
    expect(sent).toBe(CONFIRMATIONS_PER_SENDER - 1);
    clockAt(t0 + 3 * 60 * 60_000);
    const refused = await code(99);
    expect(refused.status).toBe(302);
    expect(toastOf(refused)).toMatchObject({ type: "error", description: CONFIRMATION_SENDER_LIMIT });
    expect(await outboxRows(mallory.id, "work_email_code")).toBe(sent);
    expect(toastOf(await resend(mallory.cookie))).toMatchObject({
      type: "error",
      description: CONFIRMATION_SENDER_LIMIT,
    });
    expect(await outboxRows(mallory.id, "verify_email")).toBe(1);
    // Another account is not affected; the next day Mallory may again.
    const asha = await signedInUser();
    expect(toastOf(await resend(asha.cookie))?.title).toBe("Confirmation link sent");
    clockAt(t0 + DAY);
    expect(toastOf(await code(100))?.title).toBe("Code Sent");
  });
});
