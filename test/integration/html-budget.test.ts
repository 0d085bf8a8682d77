// Issue 17: no page's HTML grows past 60 KB with the data behind it. Each page is rendered
// for the heaviest user of the city-shaped dataset (test/support/city-scale.ts: 1,000
// messages in one chat, 150 conversations, 300 requests on their rides, a 440-member
// community with 60 pending requests) and, for the lists that page (ADR 0025), also one
// page deep through its "Older"/"More" link.
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, signedInUser } from "../support/worker";
import { seedCityScale, type CityScale } from "../support/city-scale";
import { linkHref } from "../support/pages";
import { debugFetch, workerFetch } from "../support/worker-fetch";
import { addDays, istDate } from "~/domain/time";

const BUDGET = 60 * 1024;

let city: CityScale;
let cookie: string;
beforeAll(async () => {
  const busy = await signedInUser({ fullName: "Busy Commuter" });
  city = await seedCityScale(busy.id, Date.now());
  cookie = busy.cookie;
}, 120_000);

async function page(path: string) {
  const res = await workerFetch(new Request(`${BASE}${path}`, { redirect: "manual", headers: { Cookie: cookie } }));
  expect(res.status, path).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { bytes: bytes.length, html: new TextDecoder().decode(bytes) };
}

describe("HTML size on the city dataset (budget: 60 KB a page)", () => {
  it("the lists that grow with data stay within the budget, first page and next page", async () => {
    const report: string[] = [];
    const check = async (path: string, more?: string) => {
      const first = await page(path);
      report.push(`${(first.bytes / 1024).toFixed(1)} KB ${path}`);
      expect.soft(first.bytes, path).toBeLessThanOrEqual(BUDGET);
      if (!more) return;
      const next = linkHref(first.html, more);
      // The dataset is big enough that every paged list has a next page.
      expect(next, `${path}: ${more} link`).not.toBeNull();
      const second = await page(next!.startsWith("?") ? `${path.split("?")[0]}${next}` : next!);
      report.push(`${(second.bytes / 1024).toFixed(1)} KB ${next}`);
      expect.soft(second.bytes, next!).toBeLessThanOrEqual(BUDGET);
    };
    await check(`/dashboard/messages?c=${city.conversationId}`, "older-messages");
    await check("/dashboard/messages", "more-conversations");
    await check("/dashboard/rides?tab=manage", "more-requests");
    await check("/dashboard/rides?tab=manage&status=pending", "more-requests");
    await check("/dashboard/rides?tab=booked", "more-bookings");
    await check(`/communities/${city.communityId}`, "more-members");
    await check(`/communities/${city.communityId}?tab=moderation`, "more-pending");
    await check(`/communities/${city.communityId}/reports`);
    await check(`/rides/b0`);
    await check(`/rides/${city.rideId}`);
    await check("/communities");
    await check("/dashboard/rides?tab=created", "more-rides");
    await check("/dashboard", "older-notifications");
    await check("/rides", "next-page");
    await check(
      `/rides?from=HSR+Layout&to=Whitefield+ITPL&date=${addDays(istDate(), 1)}&time=08:30&radius=10&window=60`,
    );
    // Issue 36: from any metro station, at the widest (every card names its station).
    await check(
      `/rides?from=Any+metro+station&to=Manyata+Tech+Park&date=${addDays(istDate(), 1)}&time=09:00&radius=10&window=60`,
    );
    // The widest weekday search: twenty commutes, each shown by its next day.
    await check(
      `/rides?from=HSR+Layout&to=Whitefield+ITPL&time=08:30&radius=10&window=60&mode=weekdays&${["mon", "tue", "wed", "thu", "fri"].map((d) => `weekdays=${d}`).join("&")}`,
    );
    console.log(report.join("\n"));
  });

  it("the ride pages of the city dataset, with their route maps (issue 36), stay within the budget", async () => {
    for (const path of [`/rides/${city.rideId}`, `/rides/${city.rideId}/book`, "/rides/b0"]) {
      const { bytes, html } = await page(path);
      expect(html, path).toContain('data-testid="route-map"');
      expect(bytes, path).toBeLessThanOrEqual(BUDGET);
    }
  });

  it("a community page, however many members, is two D1 round trips: session with the shell's badges, then the community, the membership and its lists in one batch", async () => {
    for (const path of [
      `/communities/${city.communityId}`,
      `/communities/${city.communityId}?tab=moderation`,
      `/communities/${city.communityId}?after=0.a`,
    ]) {
      const res = await debugFetch(`${BASE}${path}`, { headers: { Cookie: cookie } });
      expect(res.status, path).toBe(200);
      const queries = Number(/queries=(\d+)/.exec(res.headers.get("Server-Timing") ?? "")?.[1]);
      expect(queries, path).toBe(2);
    }
  });
});
