import { eq } from "drizzle-orm";
import { userSettings } from "../../db/schema";
import type { SettingKey } from "../schemas/profile";
import { type ModelCtx } from "./context.server";

const DEFAULTS = {
  emailNotifications: true,
  pushNotifications: true,
  rideReminders: true,
  showProfile: true,
  shareLocation: false,
  darkMode: false,
  rideInquiries: true,
};

export type Settings = typeof DEFAULTS;

/** The acting user's own settings (defaults when never saved). */
export async function getOwnSettings({ db }: ModelCtx, userId: string): Promise<Settings> {
  const row = await db
    .select({
      emailNotifications: userSettings.emailNotifications,
      pushNotifications: userSettings.pushNotifications,
      rideReminders: userSettings.rideReminders,
      showProfile: userSettings.showProfile,
      shareLocation: userSettings.shareLocation,
      darkMode: userSettings.darkMode,
      rideInquiries: userSettings.rideInquiries,
    })
    .from(userSettings)
    .where(eq(userSettings.userId, userId))
    .get();
  return row ?? { ...DEFAULTS };
}

export async function setOwnSetting({ db }: ModelCtx, userId: string, key: SettingKey, value: boolean, now = Date.now()) {
  await db
    .insert(userSettings)
    .values({ userId, ...DEFAULTS, [key]: value, updatedAt: now })
    .onConflictDoUpdate({ target: userSettings.userId, set: { [key]: value, updatedAt: now } });
}
