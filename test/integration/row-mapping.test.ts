import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createUser } from "../../db/factories";
import { userProfiles, users, userSettings } from "../../db/schema";
import { db } from "../support/worker";

// The shapes the models rely on when drizzle-orm maps result rows: nested objects, decoded
// JSON and booleans, a left join that found nothing as null, each batched statement mapped with
// its own selection. They pinned ADR 0033's patch of the mapping; the patch is gone (ADR 0047),
// and they now catch an upgrade of drizzle-orm that changes what the models receive.

describe("drizzle-orm maps result rows as the models expect", () => {
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
    // Twice: a selection mapped again gives the same rows.
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
        .select({ push: userSettings.pushNotifications, dark: userSettings.darkMode })
        .from(userSettings)
        .where(eq(userSettings.userId, a.id)),
    ]);
    expect(names).toEqual([{ name: "Meera Iyer" }]);
    expect(flags).toEqual([{ push: true, dark: false }]);
  });
});
