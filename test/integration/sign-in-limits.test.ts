import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createUser } from "../../db/factories";
import { awayFromMinuteBoundary, db, postForm } from "../support/worker";

// Issue 19, findings 2 (the per-account limit was keyed on the raw identifier, so other
// spellings of a phone number got fresh attempts) and 6 (anyone could lock the owner out).

const PASSWORD = "filter-coffee-9";
const NUMBER = "9876501234";

/** 30 spellings of 9876501234 that the sign-in lookup reads as the same number. */
function spellings(): string[] {
  const bodies = [NUMBER, "98765 01234", "98765-01234", "9876 501 234", "9-8-7-6-5-0-1-2-3-4", "987 650 1234"];
  const prefixes = ["", "+91", "+91 ", "0", "+91-", " "];
  const out = new Set<string>();
  for (const p of prefixes) for (const b of bodies) out.add(`${p}${b}`);
  return [...out].slice(0, 30);
}

const signIn = (identifier: string, password: string, address: string) =>
  postForm("/login", { identifier, password }, { headers: { "CF-Connecting-IP": address } });

describe("finding 2: one budget per account, whatever the spelling", () => {
  it("30 spellings of one number share one budget: the 11th attempt is 429 and the right password in another spelling does not get through", async () => {
    const variants = spellings();
    expect(variants).toHaveLength(30);
    expect(new Set(variants).size).toBe(30);
    await createUser({ db: db() }, { phone: NUMBER, email: null, password: PASSWORD, pepper: env.PASSWORD_PEPPER });
    awayFromMinuteBoundary(25);
    // Five attacker addresses, six attempts each: under the per-address limit (10 a minute),
    // so only the per-account budget can stop them.
    const attacker = (i: number) => `198.18.0.${i % 5}`;
    const statuses: number[] = [];
    for (let i = 0; i < 29; i++) statuses.push((await signIn(variants[i], "wrong-guess-1", attacker(i))).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual(Array(19).fill(429));
    const right = await signIn(variants[29], PASSWORD, attacker(29));
    expect(right.status).toBe(429);
    // No session cookie (a refused attempt still hands on its D1 bookmark, lr_d1: it wrote the counter).
    expect(right.headers.get("Set-Cookie") ?? "").not.toMatch(/lr_session=/);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sessions").first()).toEqual({ n: 0 });
  });

  it("an e-mail's case and surrounding spaces do not give fresh attempts either", async () => {
    await createUser({ db: db() }, { email: "ravi@example.com", password: PASSWORD, pepper: env.PASSWORD_PEPPER });
    awayFromMinuteBoundary(20);
    for (let i = 0; i < 10; i++) {
      const spelled = i % 2 ? ` RAVI@example.COM ` : `Ravi@Example.com`;
      expect((await signIn(spelled, "wrong-guess-1", "198.18.1.1")).status).toBe(400);
    }
    expect((await signIn("ravi@EXAMPLE.com", PASSWORD, "198.18.1.2")).status).toBe(302);
    // That last address had no failures; the attacker's has.
    expect((await signIn("ravi@example.com", PASSWORD, "198.18.1.1")).status).toBe(429);
  });
});

describe("finding 6: a stranger cannot lock the owner out", () => {
  it("the attacker at address A is limited; the owner at address B signs in with the right password", async () => {
    await createUser(
      { db: db() },
      { phone: NUMBER, email: null, fullName: "Owner", password: PASSWORD, pepper: env.PASSWORD_PEPPER },
    );
    awayFromMinuteBoundary(20);
    const A = "198.18.2.1";
    const B = "198.18.2.2";
    for (let i = 0; i < 10; i++) expect((await signIn(NUMBER, `guess-${i}-xyz`, A)).status).toBe(400);
    // The attacker is limited, with a wrong or (had they guessed it) the right password.
    expect((await signIn(NUMBER, "guess-10-xyz", A)).status).toBe(429);
    expect((await signIn(NUMBER, PASSWORD, A)).status).toBe(429);
    // The owner, from an address with no failures, gets through.
    const owner = await signIn(NUMBER, PASSWORD, B);
    expect(owner.status).toBe(302);
    expect(owner.headers.get("Set-Cookie")).toMatch(/^lr_session=/);
    // A wrong password from a fresh address while the account is over its limit is counted
    // and refused; that address then waits like the attacker's.
    const C = "198.18.2.3";
    expect((await signIn(NUMBER, "guess-11-xyz", C)).status).toBe(429);
    expect((await signIn(NUMBER, PASSWORD, C)).status).toBe(429);
    // Rotating spellings from the attacker's address does not help (finding 2).
    for (const spelled of ["09876501234", "+919876501234", "98765-01234"])
      expect((await signIn(spelled, PASSWORD, A)).status).toBe(429);
  });

  it("the per-address limit stays hard: the 11th attempt a minute from one address is 429 even with the right password", async () => {
    await createUser({ db: db() }, { email: "meera@example.com", password: PASSWORD, pepper: env.PASSWORD_PEPPER });
    awayFromMinuteBoundary(20);
    for (let i = 0; i < 10; i++)
      expect((await signIn(`x${i}@example.com`, "wrong-guess-1", "198.18.3.1")).status).toBe(400);
    expect((await signIn("meera@example.com", PASSWORD, "198.18.3.1")).status).toBe(429);
  });
});

describe("finding 7: sign-up attempts per identifier are limited", () => {
  it("the 6th sign-up with one identifier (any spelling, any address) in 15 minutes is 429; other identifiers are unaffected", async () => {
    await createUser({ db: db() }, { phone: NUMBER, email: null, password: PASSWORD, pepper: env.PASSWORD_PEPPER });
    awayFromMinuteBoundary(20);
    const variants = spellings();
    const signUp = (identifier: string, i: number) =>
      postForm(
        "/signup",
        { fullName: "Prober", identifier, password: "monsoon-ride-42" },
        { headers: { "CF-Connecting-IP": `198.18.4.${i}` } },
      );
    for (let i = 0; i < 5; i++) {
      const res = await signUp(variants[i], i);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("An account with this mobile number already exists");
    }
    const sixth = await signUp(variants[5], 5);
    expect(sixth.status).toBe(429);
    expect(await sixth.text()).toContain("Too many attempts");
    // A new identifier is counted the same way, and is not affected by the other's budget.
    const fresh = await signUp("fresh-commuter@example.in", 6);
    expect(fresh.status).toBe(302);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users").first()).toEqual({ n: 2 });
  });
});
