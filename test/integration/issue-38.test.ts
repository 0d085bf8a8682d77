// Regression tests for the defects of issue 38, found by walking the app as a new member with
// JavaScript on and off (server-side ones; the JavaScript-only ones are browser journeys).
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createCommunity } from "../../db/factories";
import { unknownPlaceMessage } from "~/domain/places";
import { resolvePlace } from "~/models/places.server";
import { db, get, postForm, signedInUser } from "../support/worker";

/** Page HTML without React's text separators. */
const page = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "");
/** Text as React escapes it in HTML. */
const escaped = (t: string) =>
  t.replaceAll("&", "&amp;").replaceAll("'", "&#x27;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
/** The href of the link whose text is `label`. */
const hrefOf = (html: string, label: string) =>
  html.match(new RegExp(`<a[^>]*href="([^"]*)"[^>]*>${label}</a>`))?.[1]?.replaceAll("&amp;", "&");

describe("defect 7: Back and Cancel go where the visitor came from, without JavaScript", () => {
  it("Create Ride's Cancel follows the same-site Referer, or `from`; never another site", async () => {
    const user = await signedInUser();
    const from = (headers: Record<string, string>, path = "/rides/create") =>
      get(path, { cookie: user.cookie, headers }).then(page);
    expect(hrefOf(await from({ Referer: "http://localhost/rides?from=HSR+Layout" }), "Cancel")).toBe(
      "/rides?from=HSR+Layout",
    );
    expect(hrefOf(await from({}, "/rides/create?from=%2Fdashboard"), "Cancel")).toBe("/dashboard");
    // The form shown again after a POST without JavaScript: the Referer is the form itself.
    expect(hrefOf(await from({ Referer: "http://localhost/rides/create?from=%2Fcommutes%2Fnew" }), "Cancel")).toBe(
      "/commutes/new",
    );
    // Another site, or a scheme-relative `from`: the default, never off-site.
    expect(hrefOf(await from({ Referer: "https://evil.example/rides" }), "Cancel")).toBe("/dashboard/rides");
    expect(hrefOf(await from({}, "/rides/create?from=%2F%2Fevil.example"), "Cancel")).toBe("/dashboard/rides");
    expect(hrefOf(await from({}), "Cancel")).toBe("/dashboard/rides");
  });

  it("the 404 page's Go Back follows the same-site Referer, for unknown paths and a route's own 404", async () => {
    const user = await signedInUser();
    const unknown = await get("/no-such-page", { headers: { Referer: "http://localhost/rides?q=hsr" } });
    expect(unknown.status).toBe(404);
    expect(hrefOf(await page(unknown), "Go Back")).toBe("/rides?q=hsr");
    // A route that answers a plain 404 renders the shared error boundary's page.
    const routeOwn = await get("/commutes/not.an.id", {
      cookie: user.cookie,
      headers: { Referer: "http://localhost/dashboard/rides?tab=created" },
    });
    expect(routeOwn.status).toBe(404);
    expect(hrefOf(await page(routeOwn), "Go Back")).toBe("/dashboard/rides?tab=created");
    const offSite = await get("/no-such-page", { headers: { Referer: "https://evil.example/x" } });
    expect(hrefOf(await page(offSite), "Go Back")).toBe("/");
  });
});

describe("defect 3: Create Ride's Suggest cost without JavaScript names a place it cannot read", () => {
  it("says 'Did you mean ...' on the field, as the commute form and Discover do, and marks nothing else", async () => {
    const driver = await signedInUser();
    // Misspellings that are not aliases ("Electronic City" and "Koramangla" now resolve, issue 36).
    for (const typed of ["Koramangalla", "Malleshwarm"]) {
      const res = await postForm(
        "/rides/create",
        { intent: "suggest", fromLocation: typed, toLocation: "Manyata Tech Park" },
        { cookie: driver.cookie },
      );
      expect(res.status).toBe(200);
      const html = await page(res);
      const { suggestions = [] } = resolvePlace(typed);
      expect(suggestions.length).toBeGreaterThan(0);
      expect(html).toContain(escaped(unknownPlaceMessage(typed, suggestions)));
      expect(html).toContain(escaped("Did you mean"));
      expect(html).not.toContain('data-testid="suggested-cost"');
      // The fields the driver has yet to fill are not marked wrong by a suggestion.
      expect(html).not.toContain("Please select a date");
      expect(html).not.toContain("Please enter the trip cost");
    }
  });
});

describe("item 6: one community per name, case- and space-insensitive", () => {
  const form = (name: string) => ({
    name,
    type: "residential",
    location: "HSR Layout, Bengaluru",
    description: "Neighbours sharing the daily commute.",
  });
  const count = async () => (await env.DB.prepare("SELECT count(*) AS n FROM communities").first<{ n: number }>())!.n;

  it("refuses a name an existing community has, however spaced or capitalised, with a link to it", async () => {
    const owner = await signedInUser();
    const first = await createCommunity({ db: db() }, { createdBy: owner.id, name: "HSR Layout Sector 2 Residents" });
    const user = await signedInUser();
    const before = await count();
    for (const name of [
      "HSR Layout Sector 2 Residents",
      "  hsr layout  SECTOR 2 residents ",
      "HSRLayout Sector2Residents",
    ]) {
      const res = await postForm("/communities/new", form(name), { cookie: user.cookie });
      expect(res.status).toBe(409);
      const html = await page(res);
      expect(html).toContain("A community with this name already exists");
      expect(html).toContain(`href="/communities/${first.id}"`);
      expect(html).toContain("Open the existing community");
    }
    // With JavaScript the dialog's fetcher gets the same reply as data, the link with it.
    const data = await postForm("/communities/new.data", form("hsr layout sector 2 residents"), {
      cookie: user.cookie,
    });
    const text = await data.text();
    expect(text).toContain("A community with this name already exists");
    expect(text).toContain(`"/communities/${first.id}"`);
    expect(await count()).toBe(before);
    // Another name is fine.
    expect(
      (await postForm("/communities/new", form("HSR Layout Sector 3 Residents"), { cookie: user.cookie })).status,
    ).toBe(302);
  });

  it("two creations of one name at once give one community; the other is told it exists", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    for (let round = 0; round < 5; round++) {
      const name = `Bellandur Lake Riders ${round}`;
      const results = await Promise.all([
        postForm("/communities/new", form(name), { cookie: a.cookie }),
        postForm("/communities/new", form(name.toUpperCase()), { cookie: b.cookie }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([302, 409]);
      const rows = await env.DB.prepare("SELECT id FROM communities WHERE name_key = ?")
        .bind(`bellandurlakeriders${round}`)
        .all();
      expect(rows.results).toHaveLength(1);
      const refused = results.find((r) => r.status === 409)!;
      expect(await page(refused)).toContain(`href="/communities/${rows.results[0].id}"`);
    }
  });

  it('migration 0032 renames existing duplicates "Name (2)", oldest first, keeping every row', async () => {
    // Back to the schema before 0032, with duplicates as they were allowed then.
    await env.DB.batch([
      env.DB.prepare("DROP INDEX communities_name_key_unique"),
      env.DB.prepare("ALTER TABLE communities DROP COLUMN name_key"),
    ]);
    const owner = await signedInUser();
    const names = [
      ["c1", "HSR Layout Sector 2 Residents", 3],
      ["c2", "hsr layout sector 2 residents", 1],
      ["c3", "HSR  Layout Sector 2 Residents", 2],
      ["c4", "Whitefield Riders", 1],
    ] as const;
    await env.DB.batch(
      names.map(([id, name, at]) =>
        env.DB.prepare(
          "INSERT INTO communities (id, name, type, location, description, created_by, member_count, created_at) VALUES (?, ?, 'residential', 'HSR', 'x', ?, 0, ?)",
        ).bind(id, name, owner.id, at),
      ),
    );
    const m = env.TEST_MIGRATIONS.find((x) => x.name.startsWith("0032_"))!;
    await env.DB.batch(m.queries.map((q) => env.DB.prepare(q)));
    const rows = await env.DB.prepare(
      "SELECT id, name FROM communities WHERE id IN ('c1','c2','c3','c4') ORDER BY id",
    ).all();
    expect(rows.results).toEqual([
      { id: "c1", name: "HSR Layout Sector 2 Residents (3)" },
      { id: "c2", name: "hsr layout sector 2 residents" },
      { id: "c3", name: "HSR  Layout Sector 2 Residents (2)" },
      { id: "c4", name: "Whitefield Riders" },
    ]);
    await expect(
      env.DB.prepare(
        "INSERT INTO communities (id, name, type, location, description, created_by, member_count, created_at) VALUES ('c5', 'WHITEFIELD RIDERS', 'residential', 'x', 'x', ?, 0, 5)",
      )
        .bind(owner.id)
        .run(),
    ).rejects.toThrow(/UNIQUE/);
  });
});

describe("defect 6: the search boxes of Discover and Manage Bookings have visible labels", () => {
  it("labels each search box with text on the page, not only for screen readers", async () => {
    const user = await signedInUser();
    for (const [path, id, text] of [
      ["/rides", "q", "Search rides"],
      ["/dashboard/rides?tab=manage", "manage-q", "Search requests"],
    ]) {
      const html = await page(await get(path, { cookie: user.cookie }));
      const label = html.match(new RegExp(`<label for="${id}"[^>]*>([^<]*)</label>`));
      expect(label?.[1]).toBe(text);
      expect(label?.[0]).not.toContain("sr-only");
      expect(html).toMatch(new RegExp(`<input[^>]*id="${id}"[^>]*type="search"`));
    }
  });
});
