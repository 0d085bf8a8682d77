import { selfFetch } from "../support/worker-fetch";
import { beforeAll, describe, expect, it } from "vitest";
import { createNotification } from "../../db/factories";
import { MATRIX } from "../security/authz-matrix";
import { BASE, db } from "../support/worker";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { resolve } from "../support/authz-run";
import { buildScenario, cookieOf, type Role, type Scenario } from "../support/authz-scenario";

// No GET changes data: a crawler signed in as each role opens every page of the matrix,
// the query variants (tabs, filters, pages, chats) and every same-site link it finds,
// comparing the database content before and after each request.

const VARIANTS = [
  "/dashboard#notifications",
  "/dashboard/rides?tab=created",
  "/dashboard/rides?tab=booked",
  "/dashboard/rides?tab=manage&status=pending",
  "/dashboard/rides?tab=manage&status=accepted&q=Asha",
  "/dashboard/rides?tab=manage&status=rejected",
  "/dashboard/my-rides?tab=booked",
  "/dashboard/messages?c={driverConversation}",
  "/dashboard/messages?c={driverConversation}&before=9999999999999.zzz",
  "/dashboard/messages?c={modConversation}",
  "/dashboard/messages?to={driver}",
  "/dashboard/messages?to={acceptedRider}",
  "/rides?q=Manyata&maxCost=20&community=1",
  "/rides?date={futureDate}&page=2",
  "/communities?type=workplace&q=matrix&page=2",
  "/communities?type=residential",
  "/communities/{community}?tab=members",
  "/communities/{community}?tab=moderation",
  "/communities/{community}?tab=audit",
  "/onboarding?step=2",
  "/onboarding?step=4",
  "/profile-completion?step=1",
  "/profile-completion?step=3",
  "/profile-completion?step=4",
  "/profile-completion",
  "/rides/{pastRide}/receipt?rider={acceptedRider}",
  "/booking-confirmation/{acceptedRequest}",
  "/signup?ref=LRABCDEF",
  "/login?redirectTo=%2Frides&error=Unable%20to%20authenticate",
  "/logout",
  "/auth/google",
  "/auth/callback?code=abc&state=xyz",
];

const SKIP = /^\/(assets|build)\/|\.(css|js|png|svg|ico|webmanifest|txt|woff2?)(\?|$)/;

function linksIn(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/href="([^"]+)"/g)) {
    const href = m[1].replace(/&amp;/g, "&");
    if (href.startsWith("/") && !href.startsWith("//") && !SKIP.test(href)) out.push(href.split("#")[0] || "/");
  }
  return out;
}

async function crawl(s: Scenario, role: Role, limit = 90) {
  const cookie = cookieOf(s, role);
  const queue = [
    ...new Set(
      [...MATRIX.filter((c) => c.method === "GET").map((c) => c.path), ...VARIANTS].map((p) => resolve(p, s, role)),
    ),
  ];
  const seen = new Set<string>();
  const writes: string[] = [];
  // The database is compared every CHUNK requests (and at the end): cheap enough to crawl
  // every role, precise enough to name the few URLs that wrote.
  const CHUNK = 8;
  let chunk: string[] = [];
  let before = await dbChecksum();
  const compare = async () => {
    const after = await dbChecksum();
    const changed = changedTables(before, after);
    if (changed.length) writes.push(`one of GET ${chunk.join(", ")} as ${role} changed ${changed.join(", ")}`);
    before = after;
    chunk = [];
  };
  while (queue.length && seen.size < limit) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    chunk.push(path);
    const res = await selfFetch(`${BASE}${path}`, {
      redirect: "manual",
      headers: { ...(cookie ? { Cookie: cookie } : {}), "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "navigate" },
    });
    const body = await res.text();
    expect(res.status, `GET ${path} as ${role}`).toBeLessThan(500);
    const location = res.headers.get("Location");
    if (location?.startsWith("/")) queue.push(location);
    if ((res.headers.get("Content-Type") ?? "").includes("text/html")) queue.push(...linksIn(body));
    if (chunk.length >= CHUNK) await compare();
  }
  await compare();
  return { seen, writes };
}

describe("no GET route changes data", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await buildScenario();
    // A message notification linking to the chat: following it must not mark anything read.
    await createNotification(
      { db: db() },
      {
        userId: s.people.driver.id,
        type: "message",
        title: "New message from Asha",
        message: "Are we still on?",
        data: { conversation_id: s.driverConversationId },
      },
    );
  });

  for (const role of ["driver", "acceptedRider", "pendingRider", "moderator", "newUser", "visitor"] as Role[]) {
    it(`crawling every page as ${role} writes nothing`, async () => {
      const { seen, writes } = await crawl(s, role);
      expect(writes).toEqual([]);
      expect(seen.size).toBeGreaterThan(role === "visitor" || role === "newUser" ? 15 : 40);
    }, 300_000);
  }

  it("the crawler would notice a write (the same request as a POST does change data)", async () => {
    const before = await dbChecksum();
    const res = await selfFetch(`${BASE}/dashboard/messages`, {
      method: "POST",
      redirect: "manual",
      headers: {
        Cookie: s.people.driver.cookie,
        "Content-Type": "application/x-www-form-urlencoded",
        Host: new URL(BASE).host,
      },
      body: new URLSearchParams({ intent: "open", c: s.driverConversationId }),
    });
    expect(res.status).toBe(302);
    expect(changedTables(before, await dbChecksum())).toEqual(["messages", "notifications"]);
  });
});
