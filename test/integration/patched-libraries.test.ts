import { and, eq, sql } from "drizzle-orm";
import { createMemoryHistory, createRouter, matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";
import { createUser } from "../../db/factories";
import { userProfiles, users, userSettings } from "../../db/schema";
import { db } from "../support/worker";

// patches/ changes how drizzle-orm maps result rows and checks entity kinds, and how
// @remix-run/router matches routes (ADR 0033): the work is done once per selection, class or route
// tree instead of once per row, call or match. These pin the behaviour the patches must keep.

describe("drizzle-orm, patched: result rows map as before", () => {
  it("decodes columns, SQL, mapped SQL and aliased SQL, in flat and nested selections", async () => {
    const asha = await createUser({ db: db() }, { fullName: "Asha Rao" });
    await db()
      .update(userProfiles)
      .set({ vehicleInfo: { make: "Maruti", model: "Swift" }, smokingAllowed: true })
      .where(eq(userProfiles.userId, asha.id));
    const select = () =>
      db()
        .select({
          id: users.id,
          profile: {
            name: userProfiles.fullName,
            smoking: userProfiles.smokingAllowed,
            vehicle: userProfiles.vehicleInfo,
          },
          settings: { email: userSettings.emailNotifications },
          two: sql`1 + 1`.mapWith(Number),
          shout: sql<string>`upper(${userProfiles.fullName})`.as("shout"),
        })
        .from(users)
        .innerJoin(userSettings, eq(userSettings.userId, users.id))
        .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
        .where(eq(users.id, asha.id));
    const expected = {
      id: asha.id,
      profile: { name: "Asha Rao", smoking: true, vehicle: { make: "Maruti", model: "Swift" } },
      settings: { email: true },
      two: 2,
      shout: "ASHA RAO",
    };
    // Twice: the second run of the same selection reads the plan the first one made.
    expect(await select()).toEqual([expected]);
    expect(await select()).toEqual([expected]);
  });

  it("a left join that found nothing is null, an inner join's object is kept", async () => {
    const ravi = await createUser({ db: db() }, { fullName: "Ravi Kumar" });
    const rows = await db()
      .select({
        id: users.id,
        profile: { name: userProfiles.fullName, smoking: userProfiles.smokingAllowed },
        settings: { email: userSettings.emailNotifications },
      })
      .from(users)
      .innerJoin(userSettings, eq(userSettings.userId, users.id))
      .leftJoin(userProfiles, and(eq(userProfiles.userId, users.id), sql`0`))
      .where(eq(users.id, ravi.id));
    expect(rows).toEqual([{ id: ravi.id, profile: null, settings: { email: true } }]);
  });

  it("batched selections map each result with its own selection", async () => {
    const a = await createUser({ db: db() }, { fullName: "Meera Iyer" });
    const [names, flags] = await db().batch([
      db().select({ name: userProfiles.fullName }).from(userProfiles).where(eq(userProfiles.userId, a.id)),
      db()
        .select({ push: userSettings.pushNotifications, share: userSettings.shareLocation })
        .from(userSettings)
        .where(eq(userSettings.userId, a.id)),
    ]);
    expect(names).toEqual([{ name: "Meera Iyer" }]);
    expect(flags).toEqual([{ push: true, share: false }]);
  });
});

describe("@remix-run/router, patched: routes match as before", () => {
  const tree = (): AgnosticRouteObject[] => [
    {
      id: "root",
      path: "",
      children: [
        {
          id: "rides",
          path: "rides",
          children: [
            { id: "rides-index", index: true },
            { id: "ride", path: ":id" },
            { id: "create", path: "create" },
          ],
        },
        { id: "splat", path: "*" },
      ],
    },
  ];
  const leaf = (routes: AgnosticRouteObject[], path: string) => matchRoutes(routes, path)?.at(-1)?.route.id;

  it("ranks static over dynamic segments and a splat last, on every match of the same tree", () => {
    const routes = tree();
    for (let i = 0; i < 2; i++) {
      expect(leaf(routes, "/rides")).toBe("rides-index");
      expect(leaf(routes, "/rides/create")).toBe("create");
      expect(leaf(routes, "/RIDES/Create")).toBe("create");
      expect(leaf(routes, "/rides/abc123")).toBe("ride");
      expect(matchRoutes(routes, "/rides/abc123")?.at(-1)?.params).toEqual({ id: "abc123", "*": undefined });
      expect(leaf(routes, "/nowhere/at/all")).toBe("splat");
    }
  });

  it("another tree with the same paths is matched by its own routes", () => {
    const first = tree();
    expect(leaf(first, "/rides/x")).toBe("ride");
    const second = [{ id: "other", path: "rides/:slug" }];
    expect(matchRoutes(second, "/rides/x")?.[0].params).toEqual({ slug: "x" });
    expect(leaf(second, "/rides")).toBeUndefined();
  });

  it("a route found on navigation (lazy route discovery, as the browser does) is matched at once", async () => {
    const router = createRouter({
      routes: [{ id: "root", path: "/", children: [{ id: "home", index: true }] }],
      history: createMemoryHistory({ initialEntries: ["/"] }),
      patchRoutesOnNavigation: ({ path, patch }) => {
        if (path === "/late") patch("root", [{ id: "late", path: "late" }]);
      },
    }).initialize();
    expect(router.state.matches.at(-1)?.route.id).toBe("home");
    await router.navigate("/late");
    expect(router.state.errors).toBeNull();
    expect(router.state.matches.at(-1)?.route.id).toBe("late");
    router.dispose();
  });
});
