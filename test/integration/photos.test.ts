import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createRide, createRideRequest } from "../../db/factories";
import { photoDimensions, sniffPhotoType } from "~/domain/photo-header";
import { canSeePhoto } from "~/models/photos.server";
import { PHOTO_JPG_BASE64, PHOTO_PNG_BASE64, PHOTO_WEBP_BASE64 } from "../fixtures/photos";
import { BASE, db, get, postForm, signedInUser } from "../support/worker";
import { toastOf } from "../support/rides";
import { workerFetch } from "../support/worker-fetch";

const bytesOf = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const JPG = bytesOf(PHOTO_JPG_BASE64);
const PNG = bytesOf(PHOTO_PNG_BASE64);
const WEBP = bytesOf(PHOTO_WEBP_BASE64);

/** A multipart POST of the profile page's photo form, as a browser without JavaScript sends it. */
async function upload(
  cookie: string,
  file: Blob,
  name: string,
  extra: Record<string, string> = { intent: "upload-photo" },
  headers: Record<string, string> = {},
) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(extra)) fd.append(k, v);
  fd.append("photo", file, name);
  // Serialised here so the request carries a Content-Length, as a browser's does.
  const encoded = new Response(fd);
  const body = new Uint8Array(await encoded.arrayBuffer());
  return workerFetch(
    new Request(`${BASE}/dashboard/profile`, {
      method: "POST",
      body,
      redirect: "manual",
      headers: {
        "Content-Type": encoded.headers.get("Content-Type")!,
        "Content-Length": String(body.byteLength),
        Host: new URL(BASE).host,
        Origin: BASE,
        "Sec-Fetch-Site": "same-origin",
        Cookie: cookie,
        ...headers,
      },
    }),
  );
}

const profileRow = (userId: string) =>
  env.DB.prepare("SELECT avatar_key, avatar_url, full_name FROM user_profiles WHERE user_id = ?")
    .bind(userId)
    .first<{ avatar_key: string | null; avatar_url: string | null; full_name: string }>();

/** The user's objects in the bucket (scoped: other test files' objects are not this test's concern). */
async function storedKeys(userId: string) {
  const list = await env.AVATARS.list({ prefix: `avatars/${userId}/` });
  return list.objects.map((o) => o.key);
}

/** The JPEG's marker segments before the image data (APPn, COM, DQT, SOF...). */
function jpegMarkers(b: Uint8Array): number[] {
  const out: number[] = [];
  let i = 2;
  while (i + 4 <= b.length && b[i] === 0xff) {
    const marker = b[i + 1];
    out.push(marker);
    if (marker === 0xda) break;
    i += 2 + ((b[i + 2] << 8) | b[i + 3]);
  }
  return out;
}

const text = (b: Uint8Array) => new TextDecoder("latin1").decode(b);

describe("profile photo upload", () => {
  it("stores a JPEG with EXIF GPS as a 256x256 re-encoded square without any metadata", async () => {
    const user = await signedInUser({ fullName: "Priya Sharma" });
    // The fixture really carries the GPS block and the marker text.
    expect(text(JPG)).toContain("Exif");
    expect(text(JPG)).toContain("LOOPRIDE-GPS-MARKER");
    expect(jpegMarkers(JPG)).toContain(0xe1);

    const res = await upload(user.cookie, new File([JPG], "me.jpg", { type: "image/jpeg" }), "me.jpg");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard/profile");
    expect(toastOf(res)?.title).toBe("Profile photo updated.");

    const row = await profileRow(user.id);
    expect(row?.avatar_key).toMatch(new RegExp(`^avatars/${user.id}/[0-9a-f]{16}\\.jpg$`));
    const version = /([0-9a-f]{16})\.jpg$/.exec(row!.avatar_key!)![1];
    expect(row?.avatar_url).toBe(`/avatars/${user.id}/${version}`);
    expect(await storedKeys(user.id)).toEqual([row!.avatar_key]);

    const object = await env.AVATARS.get(row!.avatar_key!);
    const stored = new Uint8Array(await object!.arrayBuffer());
    expect(object!.httpMetadata?.contentType).toBe("image/jpeg");
    expect(sniffPhotoType(stored)).toBe("image/jpeg");
    expect(photoDimensions(stored, "image/jpeg")).toEqual({ width: 256, height: 256 });
    // Re-encoded: not the upload, no APP1 (EXIF/XMP) segment, no trace of the GPS block.
    expect(stored.byteLength).not.toBe(JPG.byteLength);
    expect(jpegMarkers(stored)).not.toContain(0xe1);
    expect(text(stored)).not.toContain("Exif");
    expect(text(stored)).not.toContain("LOOPRIDE-GPS-MARKER");
    // The version is the content's address.
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", stored));
    expect([...digest.subarray(0, 8)].map((x) => x.toString(16).padStart(2, "0")).join("")).toBe(version);

    // Served to the owner, with long private caching and an ETag.
    const served = await get(`/avatars/${user.id}/${version}`, { cookie: user.cookie });
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/jpeg");
    expect(served.headers.get("Cache-Control")).toBe("private, max-age=31536000, immutable");
    expect(served.headers.get("Vary")).toBe("Cookie");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(stored);
    const again = await get(`/avatars/${user.id}/${version}`, {
      cookie: user.cookie,
      headers: { "If-None-Match": `"${version}"` },
    });
    expect(again.status).toBe(304);

    // The profile page shows it and offers to remove it.
    const page = await (await get("/dashboard/profile", { cookie: user.cookie })).text();
    expect(page).toContain(`src="/avatars/${user.id}/${version}"`);
    expect(page).toContain("Remove photo");
    expect(page).not.toContain("Avatar upload is not supported");
  });

  it("takes PNG (with transparency) and WebP, each re-encoded to a 256x256 JPEG", async () => {
    for (const [bytes, name] of [
      [PNG, "me.png"],
      [WEBP, "me.webp"],
    ] as const) {
      const user = await signedInUser();
      const res = await upload(user.cookie, new File([bytes], name), name);
      expect(res.status, name).toBe(302);
      const row = await profileRow(user.id);
      const stored = new Uint8Array(await (await env.AVATARS.get(row!.avatar_key!))!.arrayBuffer());
      expect(sniffPhotoType(stored), name).toBe("image/jpeg");
      expect(photoDimensions(stored, "image/jpeg"), name).toEqual({ width: 256, height: 256 });
    }
  });

  it("replacing the photo deletes the old object; removing it deletes the object and the link", async () => {
    const user = await signedInUser();
    await upload(user.cookie, new File([JPG], "a.jpg"), "a.jpg");
    const first = (await profileRow(user.id))!.avatar_key!;
    await upload(user.cookie, new File([PNG], "b.png"), "b.png");
    const second = (await profileRow(user.id))!.avatar_key!;
    expect(second).not.toBe(first);
    expect(await storedKeys(user.id)).toEqual([second]);
    const oldUrl = `/avatars/${user.id}/${/([0-9a-f]{16})\.jpg$/.exec(first)![1]}`;
    expect((await get(oldUrl, { cookie: user.cookie })).status).toBe(404);

    const removed = await postForm("/dashboard/profile", { intent: "remove-photo" }, { cookie: user.cookie });
    expect(removed.status).toBe(302);
    expect(toastOf(removed)?.title).toBe("Profile photo removed.");
    expect(await profileRow(user.id)).toMatchObject({ avatar_key: null, avatar_url: null });
    expect(await storedKeys(user.id)).toEqual([]);
    const secondUrl = `/avatars/${user.id}/${/([0-9a-f]{16})\.jpg$/.exec(second)![1]}`;
    expect((await get(secondUrl, { cookie: user.cookie })).status).toBe(404);
    const page = await (await get("/dashboard/profile", { cookie: user.cookie })).text();
    expect(page).not.toContain("Remove photo");
  });

  const refusals: [string, () => Blob, string, number, string][] = [
    [
      "a file over 5 MB",
      () => new File([JPG, new Uint8Array(5 * 1024 * 1024)], "big.jpg"),
      "big.jpg",
      413,
      "The photo is larger than 5 MB. Choose a smaller photo.",
    ],
    [
      "a text file renamed .jpg",
      () => new File(["Hello, this is not a photo.\n".repeat(20)], "notes.jpg", { type: "image/jpeg" }),
      "notes.jpg",
      400,
      "That file is not a photo we can read. Choose a JPEG, PNG or WebP image.",
    ],
    [
      "a JPEG whose data is broken",
      () => new File([JPG.slice(0, 400), new Uint8Array(400).fill(7)], "broken.jpg"),
      "broken.jpg",
      400,
      "That file is not a photo we can read. Choose a JPEG, PNG or WebP image.",
    ],
    [
      "a GIF",
      () => new File(["GIF89a\x01\x00\x01\x00\x00\x00\x00;"], "me.gif", { type: "image/gif" }),
      "me.gif",
      400,
      "Only JPEG, PNG or WebP photos are accepted.",
    ],
    [
      "a PNG declaring 6000x6000 pixels",
      () =>
        new File([PNG.slice(0, 16), new Uint8Array([0, 0, 0x17, 0x70, 0, 0, 0x17, 0x70]), PNG.slice(24)], "huge.png"),
      "huge.png",
      400,
      "The photo is more than 12 megapixels. Choose a smaller photo.",
    ],
    ["no file at all", () => new File([], ""), "", 400, "Choose a photo to upload."],
  ];
  for (const [what, file, name, status, message] of refusals) {
    it(`refuses ${what} with a message, and stores nothing`, async () => {
      const user = await signedInUser();
      await upload(user.cookie, new File([JPG], "me.jpg"), "me.jpg");
      const before = await profileRow(user.id);
      const res = await upload(user.cookie, file(), name);
      expect(res.status).toBe(status);
      const html = await res.text();
      expect(html).toContain(message);
      expect(html).toContain('role="alert"');
      expect(await profileRow(user.id)).toEqual(before);
      expect(await storedKeys(user.id)).toEqual([before!.avatar_key]);
    });
  }

  it("refuses a body declared larger than the limit before reading it", async () => {
    const user = await signedInUser();
    const res = await upload(user.cookie, new File([new Uint8Array(6 * 1024 * 1024)], "huge.jpg"), "huge.jpg");
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("The photo is larger than 5 MB. Choose a smaller photo.");
    expect(await profileRow(user.id)).toMatchObject({ avatar_key: null });
    expect(await storedKeys(user.id)).toEqual([]);
    // Elsewhere a form that large is refused outright.
    const fd = new FormData();
    fd.append("content", "x".repeat(6 * 1024 * 1024));
    const encoded = new Response(fd);
    const body = new Uint8Array(await encoded.arrayBuffer());
    const other = await workerFetch(
      new Request(`${BASE}/dashboard/messages`, {
        method: "POST",
        body,
        redirect: "manual",
        headers: {
          "Content-Type": encoded.headers.get("Content-Type")!,
          "Content-Length": String(body.byteLength),
          Host: new URL(BASE).host,
          Origin: BASE,
          "Sec-Fetch-Site": "same-origin",
          Cookie: user.cookie,
        },
      }),
    );
    expect(other.status).toBe(413);
  });

  it("answers an unknown intent with 400 and changes nothing", async () => {
    const user = await signedInUser({ fullName: "Kiran Rao" });
    const res = await postForm(
      "/dashboard/profile",
      { intent: "delete-everything", fullName: "Changed" },
      { cookie: user.cookie },
    );
    expect(res.status).toBe(400);
    expect((await profileRow(user.id))?.full_name).toBe("Kiran Rao");
    const multipart = await upload(user.cookie, new File([JPG], "me.jpg"), "me.jpg", { intent: "upload-everything" });
    expect(multipart.status).toBe(400);
    expect(await storedKeys(user.id)).toEqual([]);
  });

  it("removing when there is no photo changes nothing", async () => {
    const user = await signedInUser();
    const res = await postForm("/dashboard/profile", { intent: "remove-photo" }, { cookie: user.cookie });
    expect(res.status).toBe(302);
    expect(toastOf(res)?.title).toBe("You have no profile photo.");
  });
});

describe("who may see a profile photo", () => {
  async function scene() {
    const ctx = { db: db() };
    const owner = await signedInUser({ fullName: "Deepak Driver" });
    const coMember = await signedInUser({ fullName: "Meera Member" });
    const rider = await signedInUser({ fullName: "Pavan Pending" });
    const pendingMember = await signedInUser({ fullName: "Jaya Joiner" });
    const stranger = await signedInUser({ fullName: "Sanjay Stranger" });
    const rejectedRider = await signedInUser({ fullName: "Ravi Rejected" });
    const community = await createCommunity(ctx, { createdBy: owner.id, name: "HSR Photo Club", type: "residential" });
    await addMember(ctx, { communityId: community.id, userId: coMember.id });
    await addMember(ctx, { communityId: community.id, userId: pendingMember.id, status: "pending" });
    const ride = await createRide(ctx, { driverId: owner.id });
    await createRideRequest(ctx, { rideId: ride.id, riderId: rider.id, status: "pending" });
    await createRideRequest(ctx, { rideId: ride.id, riderId: rejectedRider.id, status: "rejected" });
    await upload(owner.cookie, new File([JPG], "me.jpg"), "me.jpg");
    const url = (await profileRow(owner.id))!.avatar_url!;
    return { owner, coMember, rider, pendingMember, stranger, rejectedRider, url };
  }

  it("serves the owner, a co-member and a rider of the owner's ride; 404 to everyone else", async () => {
    const s = await scene();
    for (const who of [s.owner, s.coMember, s.rider]) {
      const res = await get(s.url, { cookie: who.cookie });
      expect(res.status, who.fullName!).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("image/jpeg");
      await res.arrayBuffer();
    }
    for (const who of [s.stranger, s.pendingMember, s.rejectedRider]) {
      const res = await get(s.url, { cookie: who.cookie });
      expect(res.status, who.fullName!).toBe(404);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
    }
    // A visitor (not signed in) gets the same 404, not a sign-in redirect.
    expect((await get(s.url)).status).toBe(404);
    // A version that is not the current photo, or not a version at all.
    expect((await get(`/avatars/${s.owner.id}/0123456789abcdef`, { cookie: s.owner.cookie })).status).toBe(404);
    expect((await get(`/avatars/${s.owner.id}/..%2F..%2Fsecret`, { cookie: s.owner.cookie })).status).toBe(404);
  });

  it("canSeePhoto: the driver sees the rider's photo too, and nobody is a stranger to themselves", async () => {
    const s = await scene();
    const ctx = { db: db() };
    expect(await canSeePhoto(ctx, s.owner.id, s.owner.id)).toBe(true);
    expect(await canSeePhoto(ctx, s.owner.id, s.rider.id)).toBe(true);
    expect(await canSeePhoto(ctx, s.rider.id, s.owner.id)).toBe(true);
    expect(await canSeePhoto(ctx, s.coMember.id, s.owner.id)).toBe(true);
    expect(await canSeePhoto(ctx, s.stranger.id, s.owner.id)).toBe(false);
    expect(await canSeePhoto(ctx, s.pendingMember.id, s.owner.id)).toBe(false);
    expect(await canSeePhoto(ctx, s.rejectedRider.id, s.owner.id)).toBe(false);
    expect(await canSeePhoto(ctx, s.coMember.id, s.rider.id)).toBe(false);
  });

  // Issue 34: a block hid the blocker's rides and messages but not their photo.
  it("a block hides the photo both ways, though the two still share a community and a ride", async () => {
    const s = await scene();
    const ctx = { db: db() };
    const block = await postForm(`/people/${s.coMember.id}`, { intent: "block" }, { cookie: s.owner.cookie });
    expect(block.status).toBe(302);
    const blocked = await get(s.url, { cookie: s.coMember.cookie });
    expect(blocked.status).toBe(404);
    expect(blocked.headers.get("Cache-Control")).toBe("no-store");
    expect(await canSeePhoto(ctx, s.coMember.id, s.owner.id)).toBe(false);
    expect(await canSeePhoto(ctx, s.owner.id, s.coMember.id)).toBe(false);
    // The rider blocks the driver: neither sees the other's photo; others still do.
    await postForm(`/people/${s.owner.id}`, { intent: "block" }, { cookie: s.rider.cookie });
    expect((await get(s.url, { cookie: s.rider.cookie })).status).toBe(404);
    expect(await canSeePhoto(ctx, s.owner.id, s.rider.id)).toBe(false);
    expect(await canSeePhoto(ctx, s.owner.id, s.owner.id)).toBe(true);
    const res = await get(s.url, { cookie: s.owner.cookie });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});
