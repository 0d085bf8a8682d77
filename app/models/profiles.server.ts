import { eq, type SQL } from "drizzle-orm";
import { userProfiles, type VehicleInfo } from "../../db/schema";
import { profileProgress } from "../domain/profile-score";
import { type ModelCtx } from "./context.server";
import type { Db } from "./db.server";
import { type Viewer, viewerKind, viewerSql, viewerValues } from "./sessions.server";
import { builtOnce } from "./statements.server";

const profileColumns = {
  userId: userProfiles.userId,
  fullName: userProfiles.fullName,
  avatarUrl: userProfiles.avatarUrl,
  avatarKey: userProfiles.avatarKey,
  residentialArea: userProfiles.residentialArea,
  workplace: userProfiles.workplace,
  phoneNumber: userProfiles.phoneNumber,
  emergencyContact: userProfiles.emergencyContact,
  emergencyContactEmail: userProfiles.emergencyContactEmail,
  bio: userProfiles.bio,
  upiId: userProfiles.upiId,
  vehicleInfo: userProfiles.vehicleInfo,
  smokingAllowed: userProfiles.smokingAllowed,
  petsAllowed: userProfiles.petsAllowed,
  musicPreference: userProfiles.musicPreference,
  conversationPreference: userProfiles.conversationPreference,
  maxDetourMinutes: userProfiles.maxDetourMinutes,
  genderPreference: userProfiles.genderPreference,
  gender: userProfiles.gender,
  createdAt: userProfiles.createdAt,
};

/** The acting user's own profile (only ever their own). */
export async function getOwnProfile({ db }: ModelCtx, userId: string) {
  return ownProfileFrom(await ownProfileQuery(db, userId));
}

/** The own-profile read for another model's batch (AlsoReads), and its mapper. */
export function ownProfileQuery(db: Db, userId: string | SQL) {
  return db.select(profileColumns).from(userProfiles).where(eq(userProfiles.userId, userId)).limit(1);
}

/** ownProfileQuery built once, for a page's first round trip (ADR 0063). */
export const ownProfileRead = (db: Db, viewer: Viewer) =>
  builtOnce(db, `own-profile:${viewerKind(viewer)}`, viewerValues(viewer), (v) => ownProfileQuery(db, viewerSql(v)));

export function ownProfileFrom(rows: unknown) {
  const profile = (rows as Awaited<ReturnType<typeof ownProfileQuery>>)[0] ?? null;
  return { profile, progress: profileProgress(profile) };
}

/** Issue 37: the acting user's own private gender, for Settings' batch (AlsoReads). */
export function ownGenderQuery(db: Db, userId: string) {
  return db.select({ gender: userProfiles.gender }).from(userProfiles).where(eq(userProfiles.userId, userId)).limit(1);
}

export type OwnProfile = NonNullable<Awaited<ReturnType<typeof getOwnProfile>>["profile"]>;

function nameParts(fullName: string) {
  const [first, ...rest] = fullName.trim().split(/\s+/);
  return { firstName: first || null, lastName: rest.join(" ") || null };
}

/** Onboarding's answers: phone and the car question, in one update. */
export async function completeOnboarding(
  { db }: ModelCtx,
  userId: string,
  answers: { phone: string; hasCar: boolean; carType: VehicleInfo["car_type"]; residentialArea?: string | null },
  now = Date.now(),
) {
  // A locality left blank keeps whatever the profile has (nothing, for a new member).
  const home = answers.residentialArea ? { residentialArea: answers.residentialArea } : {};
  const current = await db
    .select({ vehicleInfo: userProfiles.vehicleInfo })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .get();
  const vehicleInfo: VehicleInfo = {
    ...(current?.vehicleInfo ?? {}),
    has_car: answers.hasCar,
    car_type: answers.hasCar ? (answers.carType ?? null) : null,
  };
  const updated = await db
    .update(userProfiles)
    .set({ phoneNumber: answers.phone, vehicleInfo, ...home, updatedAt: now })
    .where(eq(userProfiles.userId, userId))
    .returning({ userId: userProfiles.userId });
  if (updated.length === 0) {
    // A user without a profile (should not happen; created at sign-up) gets one now.
    await db
      .insert(userProfiles)
      .values({ userId, phoneNumber: answers.phone, vehicleInfo, ...home, createdAt: now, updatedAt: now });
  }
}

export type ProfilePatch = Partial<{
  fullName: string;
  residentialArea: string | null;
  workplace: string | null;
  bio: string | null;
  upiId: string | null;
  phoneNumber: string;
  emergencyContact: string;
  emergencyContactEmail: string | null;
  smokingAllowed: boolean;
  petsAllowed: boolean;
  musicPreference: string;
  conversationPreference: string;
  maxDetourMinutes: number;
  genderPreference: string;
  gender: string | null;
}> & { vehicle?: Omit<VehicleInfo, "has_car" | "car_type"> };

/** Saves the given fields of the acting user's own profile. */
export async function updateOwnProfile({ db }: ModelCtx, userId: string, patch: ProfilePatch, now = Date.now()) {
  const { vehicle, ...fields } = patch;
  const set: Partial<typeof userProfiles.$inferInsert> = { ...fields, updatedAt: now };
  if (fields.fullName !== undefined) Object.assign(set, nameParts(fields.fullName));
  if (vehicle) {
    const current = await db
      .select({ vehicleInfo: userProfiles.vehicleInfo })
      .from(userProfiles)
      .where(eq(userProfiles.userId, userId))
      .get();
    const merged: VehicleInfo = { ...(current?.vehicleInfo ?? {}) };
    for (const [k, v] of Object.entries(vehicle)) {
      if (v) (merged as Record<string, unknown>)[k] = v;
      else delete (merged as Record<string, unknown>)[k];
    }
    set.vehicleInfo = merged;
  }
  await db
    .insert(userProfiles)
    .values({ userId, createdAt: now, ...set, updatedAt: now })
    .onConflictDoUpdate({ target: userProfiles.userId, set });
}
