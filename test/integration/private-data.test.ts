import { selfFetch } from "../support/worker-fetch";
import { beforeAll, describe, expect, it } from "vitest";
import { MATRIX } from "../security/authz-matrix";
import { BASE } from "../support/worker";
import { resolve } from "../support/authz-run";
import { buildScenario, cookieOf, ROLES, type Role, type Scenario } from "../support/authz-scenario";

// Private data never reaches a page (HTML) or its loader data (single fetch: <path>.data)
// for someone not entitled to it. Every page each role can open in the matrix is fetched
// both ways and searched for every marker the role must not see.

type Secret = { what: string; text: string; entitled: Role[] };

/**
 * Approved members of the scenario's community (the moderator is its admin by their row; its founder, the stranger, handed admin over and left). The
 * pending rider is one too: the seat rule gives no seat on a community ride to anyone else.
 */
const COMMUNITY_MEMBERS: Role[] = ["member", "driver", "acceptedRider", "pendingRider", "moderator"];
/** Who may see the community ride: its members. */
const RIDE_VIEWERS: Role[] = COMMUNITY_MEMBERS;

/** Who sees a person's residential area and workplace: themself and, on a member list, the others there. */
function areaEntitled(key: string, self: Role[]): Role[] {
  if ([...COMMUNITY_MEMBERS, "target"].includes(key)) return [...new Set([...self, ...COMMUNITY_MEMBERS])];
  if (key === "joiner" || key === "rejected") return ["moderator"]; // the moderation tab
  if (key === "stranger") return ["stranger", "otherModerator"]; // asking to join the other community
  return self;
}

function secrets(s: Scenario): Secret[] {
  const out: Secret[] = [];
  for (const [key, p] of Object.entries(s.people)) {
    const self = (ROLES as readonly string[]).includes(key) ? [key as Role] : [];
    if (p.phone) out.push({ what: `${key}'s phone number`, text: p.phone, entitled: self });
    out.push({ what: `${key}'s emergency contact`, text: p.emergency, entitled: self });
    out.push({ what: `${key}'s notification`, text: p.notification, entitled: self });
    if (p.area) out.push({ what: `${key}'s residential area`, text: p.area, entitled: areaEntitled(key, self) });
    if (p.work) out.push({ what: `${key}'s workplace`, text: p.work, entitled: areaEntitled(key, self) });
  }
  out.push(
    {
      what: "the accepted rider's message notification",
      text: "NOTIFICATION-acceptedRider-message",
      entitled: ["acceptedRider"],
    },
    { what: "the driver's message to the rider", text: s.messages.driverChat, entitled: ["driver", "acceptedRider"] },
    { what: "the rider's message to the driver", text: s.messages.riderChat, entitled: ["driver", "acceptedRider"] },
    { what: "the moderator's message to the member", text: s.messages.modChat, entitled: ["moderator", "member"] },
    { what: "the rider's payment record", text: s.paymentId, entitled: ["driver", "acceptedRider"] },
    { what: "the accepted rider's request note", text: "REQUEST-NOTE-accepted", entitled: ["driver", "acceptedRider"] },
    { what: "the pending rider's request note", text: "REQUEST-NOTE-pending", entitled: ["driver", "pendingRider"] },
    {
      what: "the pending rider's name (a member: on the member list and the driver's request list)",
      text: "Pavan Pending",
      entitled: COMMUNITY_MEMBERS,
    },
    { what: "a pending join request", text: "Jaya Joiner", entitled: ["moderator"] },
    { what: "a rejected join request", text: "Ravi Rejected", entitled: ["moderator"] },
    {
      what: "a join request to the other community",
      text: "Sanjay Stranger",
      entitled: ["otherModerator", "stranger"],
    },
    // Finding 9: a community's members and its rides are for its members.
    {
      what: "a community member's name (on its member list and contacts only)",
      text: "Tara Target",
      entitled: COMMUNITY_MEMBERS,
    },
    { what: "the community ride's note", text: "COMMUNITY-RIDE-NOTE", entitled: RIDE_VIEWERS },
    { what: "the community ride's id", text: s.ride.id, entitled: RIDE_VIEWERS },
  );
  return out;
}

/** The single-fetch data URL of a page: /a/b?x -> /a/b.data?x, / -> /_root.data. */
function dataUrl(path: string) {
  const u = new URL(path, BASE);
  if (u.pathname.endsWith(".data")) return u.toString();
  u.pathname = u.pathname === "/" ? "/_root.data" : `${u.pathname.replace(/\/$/, "")}.data`;
  return u.toString();
}

describe("private data stays private", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await buildScenario();
  });

  for (const role of ROLES) {
    it(`${role}: no page (HTML or .data) shows what ${role} is not entitled to`, async () => {
      const cookie = cookieOf(s, role);
      const headers = { ...(cookie ? { Cookie: cookie } : {}), "Sec-Fetch-Site": "same-origin" };
      const forbidden = secrets(s).filter((x) => !x.entitled.includes(role));
      const pages = MATRIX.filter((c) => c.method === "GET" && c.expect[role] === "page").map((c) =>
        resolve(c.path, s, role),
      );
      expect(pages.length).toBeGreaterThan(role === "visitor" ? 5 : role === "newUser" ? 3 : 20);
      const leaks: string[] = [];
      let checked = 0;
      for (const path of pages) {
        for (const url of [`${BASE}${path}`, dataUrl(path)]) {
          const res = await selfFetch(url, { redirect: "manual", headers });
          const body = await res.text();
          expect(res.status, `${url} as ${role}`).toBeLessThan(500);
          if (res.status === 200) checked++;
          for (const x of forbidden) if (body.includes(x.text)) leaks.push(`${url} shows ${x.what} to ${role}`);
        }
      }
      expect(leaks).toEqual([]);
      expect(checked).toBeGreaterThanOrEqual(pages.length);
    });
  }

  it("the markers are really rendered for those entitled (so their absence above means something)", async () => {
    const seen = async (role: Role, path: string) => {
      const res = await selfFetch(`${BASE}${resolve(path, s, role)}`, {
        headers: { Cookie: cookieOf(s, role)!, "Sec-Fetch-Site": "same-origin" },
      });
      return res.text();
    };
    expect(await seen("driver", "/dashboard/messages?c={driverConversation}")).toContain(s.messages.riderChat);
    expect(await seen("acceptedRider", "/dashboard")).toContain("NOTIFICATION-acceptedRider-private");
    expect(await seen("driver", "/rides/{ride}")).toContain("REQUEST-NOTE-pending");
    expect(await seen("driver", "/rides/{ride}")).toContain("Pavan Pending");
    expect(await seen("moderator", "/communities/{community}?tab=moderation")).toContain("Jaya Joiner");
    const members = await seen("member", "/communities/{community}");
    for (const text of ["Tara Target", s.people.target.area, s.people.driver.work]) expect(members).toContain(text);
    expect(await seen("pendingRider", "/rides/{ride}")).toContain("COMMUNITY-RIDE-NOTE");
    expect(await seen("member", "/rides?q=HSR")).toContain(s.ride.id);
    expect(await seen("acceptedRider", "/rides/{pastRide}/completion")).toContain(s.paymentId);
    const profile = await seen("member", "/profile-completion?step=2");
    expect(profile).toContain(s.people.member.phone);
    expect(profile).toContain(s.people.member.emergency);
    // And in loader data too.
    const data = await selfFetch(dataUrl(resolve("/dashboard/messages?c={driverConversation}", s, "acceptedRider")), {
      headers: { Cookie: cookieOf(s, "acceptedRider")!, "Sec-Fetch-Site": "same-origin" },
    });
    expect(await data.text()).toContain(s.messages.driverChat);
  });
});
