import { eq } from "drizzle-orm";
import { userSettings } from "../../db/schema";
import type { SettingKey } from "../schemas/profile";
import { type ModelCtx } from "./context.server";
import type { Db } from "./db.server";

const DEFAULTS = {
  emailNotifications: true,
  pushNotifications: true,
  rideReminders: true,
  showProfile: true,
  darkMode: false,
  rideInquiries: true,
  showPhone: true,
};

export type Settings = typeof DEFAULTS;

/** The acting user's own settings (defaults when never saved). */
export async function getOwnSettings({ db }: ModelCtx, userId: string): Promise<Settings> {
  return settingsFrom(await ownSettingsQuery(db, userId));
}

/** getOwnSettings' read for another model's batch (AlsoReads), and its mapper. */
export function ownSettingsQuery(db: Db, userId: string) {
  return db
    .select({
      emailNotifications: userSettings.emailNotifications,
      pushNotifications: userSettings.pushNotifications,
      rideReminders: userSettings.rideReminders,
      showProfile: userSettings.showProfile,
      darkMode: userSettings.darkMode,
      rideInquiries: userSettings.rideInquiries,
      showPhone: userSettings.showPhone,
    })
    .from(userSettings)
    .where(eq(userSettings.userId, userId))
    .limit(1);
}

export function settingsFrom(rows: unknown): Settings {
  return (rows as Awaited<ReturnType<typeof ownSettingsQuery>>)[0] ?? { ...DEFAULTS };
}

export async function setOwnSetting(
  { db }: ModelCtx,
  userId: string,
  key: SettingKey,
  value: boolean,
  now = Date.now(),
) {
  await db
    .insert(userSettings)
    .values({ userId, ...DEFAULTS, [key]: value, updatedAt: now })
    .onConflictDoUpdate({ target: userSettings.userId, set: { [key]: value, updatedAt: now } });
}
