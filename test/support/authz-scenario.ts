import { env } from "./env";
import { conversationIdFor } from "~/domain/conversation";
import { addDays, istDate } from "~/domain/time";
import { completeRide } from "~/models/completion.server";
import { topUpCommutes } from "~/models/commutes.server";
import { saveSearch } from "~/models/saved-searches.server";
import { WEEKDAYS, dayOfWeek } from "~/domain/commutes";
import { setProfilePhoto } from "~/models/photos.server";
import { PHOTO_JPG_BASE64 } from "../fixtures/photos";
import {
  addMember,
  createCommunity,
  createCommuteBooking,
  createCommutePattern,
  createMessage,
  createNotification,
  createRide,
  createRideRequest,
} from "../../db/factories";
import { db, signedInUser } from "./worker";

// One world for the authorization tests: every role of the matrix, with private data
// marked by distinctive strings so a page that leaks it can be caught by a plain search.

export const ROLES = [
  "visitor",
  "newUser",
  "member",
  "driver",
  "acceptedRider",
  "pendingRider",
  "stranger",
  "moderator",
  "otherModerator",
] as const;
export type Role = (typeof ROLES)[number];
export type SignedInRole = Exclude<Role, "visitor">;

/** Per-user private markers: phone numbers are valid (10 digits, 6-9 first) and distinct. */
const PHONE: Record<SignedInRole | "joiner" | "rejected" | "target", string> = {
  newUser: "6000000101",
  member: "6000000102",
  driver: "6000000103",
  acceptedRider: "6000000104",
  pendingRider: "6000000105",
  stranger: "6000000106",
  moderator: "6000000107",
  otherModerator: "6000000108",
  joiner: "6000000109",
  rejected: "6000000110",
  target: "6000000111",
};

export type Person = {
  id: string;
  cookie: string;
  fullName: string | null;
  phone: string;
  emergency: string;
  notification: string;
  area: string;
  work: string;
};

async function person(
  key: keyof typeof PHONE,
  fullName: string,
  opts: { onboarded?: boolean; upiId?: string } = {},
): Promise<Person> {
  const emergency = `EMERGENCY-${key}-Amma 98450`;
  const notification = `NOTIFICATION-${key}-private`;
  // Shown on a community's member list: to its approved members only (finding 9).
  const area = `AREA-${key} Koramangala`;
  const work = `WORK-${key} Tech Park`;
  const onboarded = opts.onboarded ?? true;
  const u = await signedInUser({
    fullName,
    onboarded,
    // A user before onboarding has no phone yet (that is what makes them "new").
    profile: onboarded
      ? {
          phoneNumber: PHONE[key],
          emergencyContact: emergency,
          upiId: opts.upiId ?? null,
          residentialArea: area,
          workplace: work,
        }
      : { emergencyContact: emergency },
  });
  await createNotification({ db: db() }, { userId: u.id, title: `Alert for ${key}`, message: notification });
  return {
    id: u.id,
    cookie: u.cookie,
    fullName,
    phone: onboarded ? PHONE[key] : "",
    emergency,
    notification,
    area: onboarded ? area : "",
    work: onboarded ? work : "",
  };
}

export async function buildScenario() {
  const ctx = { db: db() };
  const people = {
    newUser: await person("newUser", "Nikhil New", { onboarded: false }),
    member: await person("member", "Meera Member"),
    driver: await person("driver", "Deepak Driver", { upiId: "deepak@okaxis" }),
    acceptedRider: await person("acceptedRider", "Asha Accepted"),
    pendingRider: await person("pendingRider", "Pavan Pending"),
    stranger: await person("stranger", "Sanjay Stranger"),
    moderator: await person("moderator", "Mohan Moderator"),
    otherModerator: await person("otherModerator", "Omana Othermod"),
    joiner: await person("joiner", "Jaya Joiner"),
    rejected: await person("rejected", "Ravi Rejected"),
    target: await person("target", "Tara Target"),
  };
  const community = await createCommunity(ctx, {
    createdBy: people.stranger.id,
    name: "HSR Sector 2 Matrix",
    type: "residential",
  });
  // Issue 34: roles come from membership rows only. The stranger founded the community, handed
  // admin over to the moderator and left: communities.created_by still names them, yet every
  // cell treats them as the outsider they are, and the moderator is its admin by their row alone.
  await env.DB.batch([
    env.DB.prepare("DELETE FROM community_members WHERE community_id = ? AND user_id = ?").bind(
      community.id,
      people.stranger.id,
    ),
    env.DB.prepare(
      "INSERT INTO community_members (id, community_id, user_id, status, role, requested_at, decided_at) VALUES (?, ?, ?, 'approved', 'admin', ?, ?)",
    ).bind(`${community.id}-admin`, community.id, people.moderator.id, Date.now(), Date.now()),
  ]);
  const otherCommunity = await createCommunity(ctx, {
    createdBy: people.otherModerator.id,
    name: "Whitefield Matrix",
    type: "workplace",
  });
  // The pending rider is a member too: the seat rule (issue 34) gives no seat on a community ride to anyone else.
  for (const key of ["member", "driver", "acceptedRider", "pendingRider", "target"] as const) {
    await addMember(ctx, { communityId: community.id, userId: people[key].id });
  }
  const joinRequest = await addMember(ctx, { communityId: community.id, userId: people.joiner.id, status: "pending" });
  const rejectedRequest = await addMember(ctx, {
    communityId: community.id,
    userId: people.rejected.id,
    status: "rejected",
  });
  const targetMembership = await env.DB.prepare(
    "SELECT id FROM community_members WHERE community_id = ? AND user_id = ?",
  )
    .bind(community.id, people.target.id)
    .first<{ id: string }>();
  // Issue 16: the target member is suspended for a week (lifting it is a matrix cell).
  await env.DB.prepare("UPDATE community_members SET suspended_until = ? WHERE id = ?")
    .bind(Date.now() + 7 * 86_400_000, targetMembership!.id)
    .run();
  // The stranger waits to join the OTHER community (so its moderator has something to decide).
  const otherJoin = await addMember(ctx, {
    communityId: otherCommunity.id,
    userId: people.stranger.id,
    status: "pending",
  });

  // The ride of the matrix: upcoming, in the community, one accepted and one pending rider.
  const ride = await createRide(ctx, {
    driverId: people.driver.id,
    communityId: community.id,
    date: addDays(istDate(), 2),
    seats: 4,
    tripCostPaise: 48000,
    notes: "COMMUNITY-RIDE-NOTE Pickup at the Agara lake gate",
  });
  const acceptedRequest = await createRideRequest(ctx, {
    rideId: ride.id,
    riderId: people.acceptedRider.id,
    status: "accepted",
    notes: "REQUEST-NOTE-accepted",
  });
  const pendingRequest = await createRideRequest(ctx, {
    rideId: ride.id,
    riderId: people.pendingRider.id,
    status: "pending",
    notes: "REQUEST-NOTE-pending",
  });

  // A public ride (shared with no community): anyone signed in may see and book it. The
  // matrix's ride above is shared with the community, so only its approved members (and
  // the pending rider, who asked for a seat) may see it (finding 9).
  const publicRide = await createRide(ctx, {
    driverId: people.driver.id,
    date: addDays(istDate(), 3),
    seats: 3,
    tripCostPaise: 30000,
    notes: "Public ride by the ring road",
  });

  // A ride already done: completed by its driver (payments recorded); the rider who was
  // still pending on it has an expired request.
  const pastRide = await createRide(ctx, {
    driverId: people.driver.id,
    communityId: community.id,
    date: addDays(istDate(), -2),
    seats: 3,
    tripCostPaise: 36000,
  });
  await createRideRequest(ctx, { rideId: pastRide.id, riderId: people.acceptedRider.id, status: "accepted", seats: 2 });
  await createRideRequest(ctx, { rideId: pastRide.id, riderId: people.pendingRider.id, status: "pending" });
  await completeRide(ctx, people.driver.id, pastRide.id);
  const payment = await env.DB.prepare("SELECT id, amount_paise FROM payments WHERE ride_id = ? AND payer_id = ?")
    .bind(pastRide.id, people.acceptedRider.id)
    .first<{ id: string; amount_paise: number }>();

  // A commute of the driver shared with the community (issue 14): two days, five and six
  // days ahead, the pending rider waiting on both.
  const commuteStart = addDays(istDate(), 5);
  const commute = await createCommutePattern(ctx, {
    driverId: people.driver.id,
    communityId: community.id,
    weekdays: 127,
    startDate: commuteStart,
    endDate: addDays(commuteStart, 1),
    seats: 3,
  });
  const commuteDays = (await topUpCommutes(ctx)).filter((r) => r.commuteId === commute.id);
  const commuteRequests: string[] = [];
  for (const day of commuteDays)
    commuteRequests.push(
      (await createRideRequest(ctx, { rideId: day.id, riderId: people.pendingRider.id, status: "pending" })).id,
    );
  const commuteDay = commuteDays.find((d) => d.id)!.id;
  // Issue 35: the pending rider's standing booking of it, paused over its two days.
  await createCommuteBooking(ctx, {
    commuteId: commute.id,
    riderId: people.pendingRider.id,
    weekdays: 127,
    status: "paused",
    pausedFrom: commuteStart,
    pausedUntil: addDays(commuteStart, 1),
  });

  // The member's saved search (issue 14): only they may pause, resume or delete it.
  const savedSearch = await saveSearch(ctx, people.member.id, {
    from: "HSR Layout",
    to: "Manyata Tech Park",
    time: "08:30",
    radiusKm: 2,
    windowMinutes: 15,
    weekdays: 127,
  });

  // Private conversations: driver with accepted rider, moderator with member.
  const driverChat = `MESSAGE-driver-to-rider see you at 8`;
  const riderChat = `MESSAGE-rider-to-driver thanks`;
  const modChat = `MESSAGE-moderator-to-member welcome`;
  await createMessage(ctx, { senderId: people.driver.id, receiverId: people.acceptedRider.id, content: driverChat });
  await createMessage(ctx, { senderId: people.acceptedRider.id, receiverId: people.driver.id, content: riderChat });
  await createMessage(ctx, { senderId: people.moderator.id, receiverId: people.member.id, content: modChat });

  const messageNotification = await createNotification(ctx, {
    userId: people.acceptedRider.id,
    type: "message",
    title: "New message",
    message: "NOTIFICATION-acceptedRider-message",
    data: { conversation_id: conversationIdFor(people.driver.id, people.acceptedRider.id) },
  });

  // The driver has a profile photo (the fixture's bytes stand in for a processed upload).
  const photo = Uint8Array.from(atob(PHOTO_JPG_BASE64), (c) => c.charCodeAt(0));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", photo));
  const photoVersion = [...digest.subarray(0, 8)].map((x) => x.toString(16).padStart(2, "0")).join("");
  await setProfilePhoto({ ...ctx, env }, people.driver.id, photo, photoVersion);

  return {
    people,
    community,
    driverPhotoPath: `/avatars/${people.driver.id}/${photoVersion}`,
    otherCommunity,
    joinRequestId: joinRequest.id,
    rejectedRequestId: rejectedRequest.id,
    targetMemberId: targetMembership!.id,
    otherJoinId: otherJoin.id,
    ride,
    publicRide,
    acceptedRequestId: acceptedRequest.id,
    pendingRequestId: pendingRequest.id,
    pastRide,
    paymentId: payment!.id,
    paymentAmountPaise: payment!.amount_paise,
    driverConversationId: conversationIdFor(people.driver.id, people.acceptedRider.id),
    modConversationId: conversationIdFor(people.moderator.id, people.member.id),
    messages: { driverChat, riderChat, modChat },
    messageNotificationId: messageNotification.id,
    commuteId: commute.id,
    commuteDay,
    commuteRequest: commuteRequests[0],
    savedSearchId: savedSearch.id,
    commuteStart,
    commuteWeekday: WEEKDAYS.find((d) => d.bit === dayOfWeek(commuteStart))!.key,
  };
}

export type Scenario = Awaited<ReturnType<typeof buildScenario>>;

export function cookieOf(s: Scenario, role: Role): string | undefined {
  return role === "visitor" ? undefined : s.people[role].cookie;
}
