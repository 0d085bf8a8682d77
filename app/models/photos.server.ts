import type { AppEnv } from "../utils/env.server";
import { and, eq, isNull, sql } from "drizzle-orm";
import { userProfiles } from "../../db/schema";
import { ConflictError, NotFoundError } from "./errors.server";
import { type ModelCtx } from "./context.server";
import { blockedEitherWay, sharesCommunityOrRide } from "./relations.server";

type Ctx = ModelCtx & { env: Pick<AppEnv, "AVATARS"> };

/** A photo's version is the first 16 hex digits of its SHA-256 (app/utils/photo.server.ts). */
export const PHOTO_VERSION = /^[0-9a-f]{16}$/;

/** The URL a photo is served at; it changes with the photo, so it may be cached for long. */
export function photoPath(userId: string, version: string) {
  return `/avatars/${encodeURIComponent(userId)}/${version}`;
}

function photoKey(userId: string, version: string) {
  return `avatars/${userId}/${version}.jpg`;
}

/**
 * THE photo rule (both callers below): someone who shares a community or a ride with the
 * owner, unless either blocked the other. A block hides the blocker's face from the blocked
 * person as it hides their rides and messages (issue 34).
 */
function maySeePhoto(viewerId: string, ownerId: string) {
  return sql<number>`(${sharesCommunityOrRide(viewerId, ownerId)} AND NOT ${blockedEitherWay(viewerId, ownerId)})`;
}

/** Whether `viewerId` may see `ownerId`'s profile photo: the owner, or someone the photo rule lets. */
export async function canSeePhoto({ db }: ModelCtx, viewerId: string, ownerId: string): Promise<boolean> {
  if (viewerId === ownerId) return true;
  const row = await db
    .select({ shared: maySeePhoto(viewerId, ownerId) })
    .from(userProfiles)
    .where(eq(userProfiles.userId, ownerId))
    .get();
  return Boolean(row?.shared);
}

/**
 * The stored photo `ownerId` has now at `version`, for `viewerId`; null when there is no
 * such photo or the viewer may not see it (the route answers 404 either way, so a stranger
 * cannot tell a hidden photo from a missing one). One D1 query.
 */
export async function getPhotoForViewer({ db, env }: Ctx, viewerId: string, ownerId: string, version: string) {
  if (!PHOTO_VERSION.test(version)) return null;
  const row = await db
    .select({
      key: userProfiles.avatarKey,
      shared: viewerId === ownerId ? sql<number>`1` : maySeePhoto(viewerId, ownerId),
    })
    .from(userProfiles)
    .where(eq(userProfiles.userId, ownerId))
    .get();
  if (!row?.shared || row.key !== photoKey(ownerId, version)) return null;
  return env.AVATARS.get(row.key);
}

/**
 * Makes `jpeg` (already checked and re-encoded) the acting user's photo. The object is
 * stored before the row points at it, and the old object is deleted only after the row
 * stopped pointing at it, so a page never links a missing photo. The update is guarded by
 * the key it replaces: of two uploads racing, the later one is refused (and its object
 * removed) rather than leaving the loser's object behind.
 */
export async function setProfilePhoto(
  { db, env }: Ctx,
  userId: string,
  jpeg: Uint8Array<ArrayBuffer>,
  version: string,
  now = Date.now(),
) {
  if (!PHOTO_VERSION.test(version)) throw new Error("bad photo version");
  const key = photoKey(userId, version);
  const current = await db
    .select({ key: userProfiles.avatarKey })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .get();
  if (!current) throw new NotFoundError("Profile not found");
  if (current.key === key) return { changed: false };
  await env.AVATARS.put(key, jpeg, { httpMetadata: { contentType: "image/jpeg" } });
  const updated = await db
    .update(userProfiles)
    .set({ avatarKey: key, avatarUrl: photoPath(userId, version), updatedAt: now })
    .where(
      and(
        eq(userProfiles.userId, userId),
        current.key === null ? isNull(userProfiles.avatarKey) : eq(userProfiles.avatarKey, current.key),
      ),
    )
    .returning({ userId: userProfiles.userId });
  if (updated.length === 0) {
    const latest = await db
      .select({ key: userProfiles.avatarKey })
      .from(userProfiles)
      .where(eq(userProfiles.userId, userId))
      .get();
    if (latest?.key !== key) await env.AVATARS.delete(key);
    throw new ConflictError("Your photo was changed at the same time. Please try again.");
  }
  if (current.key) await env.AVATARS.delete(current.key);
  return { changed: true };
}

/** Removes the acting user's photo: the row first (no page links it any more), then the object. */
export async function removeProfilePhoto({ db, env }: Ctx, userId: string, now = Date.now()) {
  const current = await db
    .select({ key: userProfiles.avatarKey })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .get();
  if (!current?.key) return { removed: false };
  const updated = await db
    .update(userProfiles)
    .set({ avatarKey: null, avatarUrl: null, updatedAt: now })
    .where(and(eq(userProfiles.userId, userId), eq(userProfiles.avatarKey, current.key)))
    .returning({ userId: userProfiles.userId });
  if (updated.length === 0) throw new ConflictError("Your photo was changed at the same time. Please try again.");
  await env.AVATARS.delete(current.key);
  return { removed: true };
}
