import { selfFetch } from "../support/worker-fetch";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-ignore The Remix server build exists only after `npm run build`.
import * as build from "../../build/server";
import { MATRIX, type Column } from "../security/authz-matrix";
import { BASE } from "../support/worker";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { runCell, send } from "../support/authz-run";
import { buildScenario, ROLES, type Role, type Scenario } from "../support/authz-scenario";

// CSRF over every action of the route manifest (docs/decisions/0005-csrf.md): a browser
// request marked cross-site is refused with 403 before Remix runs and changes nothing; a
// request with neither Origin nor Sec-Fetch-Site (a non-browser client, which carries no
// ambient cookies) is handled exactly like a same-origin one.

const manifest = (build as unknown as { routes: Record<string, { module: { action?: unknown } }> }).routes;
const POSTS = MATRIX.filter((c) => c.method === "POST");

/** The role whose forged request would matter most: one allowed to do it (else the driver). */
function actorOf(col: Column): Role {
  return (
    ROLES.find((r) => col.expect[r].startsWith("done")) ??
    ROLES.find((r) => col.expect[r].startsWith("noop")) ??
    "driver"
  );
}

const CROSS_SITE: Record<string, Record<string, string>> = {
  "a foreign Origin": { Origin: "https://evil.example" },
  "Sec-Fetch-Site: cross-site": { "Sec-Fetch-Site": "cross-site" },
  "Sec-Fetch-Site: same-site (a sibling subdomain)": { "Sec-Fetch-Site": "same-site" },
  "Origin: null (sandboxed frame)": { Origin: "null" },
  "a foreign Origin claiming same-origin fetch metadata": {
    Origin: "https://evil.example",
    "Sec-Fetch-Site": "same-origin",
  },
};

describe("CSRF on every action", () => {
  it("covers every route module that exports an action", () => {
    const withAction = Object.entries(manifest)
      .filter(([, r]) => r.module.action)
      .map(([id]) => id);
    const covered = new Set(POSTS.map((c) => c.route));
    expect(withAction.filter((id) => !covered.has(id))).toEqual([]);
    expect(withAction.length).toBeGreaterThan(15);
  });

  let s: Scenario;
  beforeAll(async () => {
    s = await buildScenario();
  });

  // Remix runs an action for PUT, PATCH and DELETE too: they are writes like POST.
  it("other write methods are refused cross-site too, and OPTIONS never reaches an action", async () => {
    const col = POSTS.find((c) => c.name === "community: approve")!;
    const url = `${BASE}/communities/${s.community.id}`;
    const body = () => new URLSearchParams({ intent: "approve", memberId: s.joinRequestId });
    const base = {
      Cookie: s.people.moderator.cookie,
      "Content-Type": "application/x-www-form-urlencoded",
      Host: new URL(BASE).host,
    };
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      for (const headers of [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }] as Record<
        string,
        string
      >[]) {
        const before = await dbChecksum();
        const res = await selfFetch(url, {
          method,
          body: body(),
          redirect: "manual",
          headers: { ...base, ...headers },
        });
        expect(res.status, `${method} ${JSON.stringify(headers)}`).toBe(403);
        expect(changedTables(before, await dbChecksum())).toEqual([]);
      }
    }
    const before = await dbChecksum();
    const res = await selfFetch(url, {
      method: "OPTIONS",
      body: body(),
      redirect: "manual",
      headers: { ...base, Origin: "https://evil.example" },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    // The same approval as a same-origin POST does work (so the refusals above are meaningful).
    await runCell(col, s, "moderator", col.expect.moderator);
  });

  for (const col of POSTS) {
    const actor = actorOf(col);
    it(`POST ${col.name} as ${actor}: every cross-site variant is refused with 403 and changes nothing`, async () => {
      // Every variant must leave the database as it was: each is compared with the snapshot
      // taken after the one before (equal to the first, or the test has already failed).
      let before = await dbChecksum();
      for (const [label, headers] of Object.entries(CROSS_SITE)) {
        const res = await send(col, s, actor, headers);
        expect(res.status, `${label}`).toBe(403);
        expect(await res.text(), label).toBe("Cross-site request refused");
        const after = await dbChecksum();
        expect(changedTables(before, after), label).toEqual([]);
        before = after;
      }
    });
    it(`POST ${col.name} as ${actor} from a non-browser client (no Origin, no Sec-Fetch-Site): ${col.expect[actor]}`, async () => {
      await runCell(col, s, actor, col.expect[actor], { Host: new URL(BASE).host });
    });
  }
});
