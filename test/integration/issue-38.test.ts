// Regression tests for the defects of issue 38, found by walking the app as a new member with
// JavaScript on and off (server-side ones; the JavaScript-only ones are browser journeys).
import { describe, expect, it } from "vitest";
import { unknownPlaceMessage } from "~/domain/places";
import { resolvePlace } from "~/models/places.server";
import { get, postForm, signedInUser } from "../support/worker";

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
    for (const typed of ["Electronic City", "Koramangla"]) {
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
