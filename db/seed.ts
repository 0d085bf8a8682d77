// Demo data for local development: the demo users (README) with communities, upcoming rides
// between real places and requests in every state, then the city around them (seed-city.ts).
// Built only from the test factories.
import { count } from "drizzle-orm";
import { addDays, istDate } from "../app/domain/time";
import type { Db } from "../app/models/db.server";
import {
  addMember,
  createCommunity,
  createCompletedRide,
  createMessage,
  createNotification,
  createRide,
  createRideRequest,
  createUser,
  seededRandom,
  type Ctx,
} from "./factories";
import { users } from "./schema";
import { seedCity } from "./seed-city";
import { hashPassword } from "../app/utils/password.server";

export const DEMO_PASSWORD = "carpool-bengaluru";

export const DEMO_USERS = [
  {
    key: "priya",
    fullName: "Priya Sharma",
    email: "priya@demo.loopride.in",
    area: "HSR Layout",
    work: "RMZ Ecospace",
    car: "petrol",
  },
  {
    key: "arjun",
    fullName: "Arjun Rao",
    email: "arjun@demo.loopride.in",
    area: "Whitefield",
    work: "Whitefield ITPL",
    car: "electric",
  },
  {
    key: "kavya",
    fullName: "Kavya Nair",
    email: "kavya@demo.loopride.in",
    area: "Koramangala",
    work: "RMZ Ecospace",
    car: null,
  },
  {
    key: "rahul",
    fullName: "Rahul Verma",
    email: "rahul@demo.loopride.in",
    area: "HSR Layout",
    work: "Manyata Tech Park",
    car: null,
  },
  {
    key: "ananya",
    fullName: "Ananya Iyer",
    email: "ananya@demo.loopride.in",
    area: "Indiranagar",
    work: "Manyata Tech Park",
    car: "hybrid",
  },
  {
    key: "vikram",
    fullName: "Vikram Reddy",
    email: "vikram@demo.loopride.in",
    area: "Jayanagar",
    work: "Electronic City Phase 1",
    car: null,
  },
  {
    key: "sneha",
    fullName: "Sneha Kulkarni",
    email: "sneha@demo.loopride.in",
    area: "Marathahalli",
    work: "Embassy Tech Village",
    car: null,
  },
  {
    key: "irfan",
    fullName: "Mohammed Irfan",
    email: "irfan@demo.loopride.in",
    area: "Hebbal",
    work: "Manyata Tech Park",
    car: "diesel",
  },
] as const;

type Key = (typeof DEMO_USERS)[number]["key"];

export async function isDatabaseEmpty({ db }: { db: Db }) {
  const row = await db.select({ n: count() }).from(users).get();
  return (row?.n ?? 0) === 0;
}

export async function seedDemo({ db }: { db: Db }, { pepper, now = Date.now() }: { pepper: string; now?: number }) {
  // Seeded ids and one clock: seeding twice writes the same rows (seed.test.ts).
  const ctx: Ctx = { db, random: seededRandom(2026), now };
  const u = {} as Record<Key, string>;
  for (const [i, d] of DEMO_USERS.entries()) {
    const user = await createUser(ctx, {
      email: d.email,
      fullName: d.fullName,
      password: DEMO_PASSWORD,
      pepper,
      createdAt: now - (30 - i) * 86400000,
      // The demo addresses count as verified, so the development mailbox shows their e-mails.
      emailVerifiedAt: now - (30 - i) * 86400000,
      profile: {
        residentialArea: d.area,
        workplace: d.work,
        phoneNumber: `98450${String(10000 + i * 1111).slice(0, 5)}`,
        vehicleInfo: d.car ? { has_car: true, car_type: d.car } : { has_car: false, car_type: null },
        bio: `${d.fullName.split(" ")[0]} commutes from ${d.area} to ${d.work}.`,
      },
    });
    u[d.key] = user.id;
  }

  const day = (n: number) => addDays(istDate(now), n);
  const hsr = await createCommunity(ctx, {
    createdBy: u.priya,
    name: "HSR Layout Sector 2 Residents",
    type: "residential",
    location: "HSR Layout, Bengaluru",
    description: "Neighbours in HSR Layout Sector 2 sharing rides to the tech parks on Outer Ring Road.",
    createdAt: now - 20 * 86400000,
  });
  const rmz = await createCommunity(ctx, {
    createdBy: u.kavya,
    name: "RMZ Ecospace Commuters",
    type: "workplace",
    location: "Bellandur, Bengaluru",
    description: "Colleagues at RMZ Ecospace pooling cars from Koramangala, HSR and Sarjapur Road.",
    createdAt: now - 15 * 86400000,
  });
  const manyata = await createCommunity(ctx, {
    createdBy: u.ananya,
    name: "Manyata Tech Park Carpool",
    type: "workplace",
    location: "Nagawara, Bengaluru",
    description: "Carpooling to Manyata Tech Park from Hebbal, Indiranagar and the city centre.",
    createdAt: now - 10 * 86400000,
  });
  const trek = await createCommunity(ctx, {
    createdBy: u.arjun,
    name: "Weekend Nandi Hills Riders",
    type: "interest",
    location: "Bengaluru",
    description: "Early Saturday rides to Nandi Hills and back, for cyclists and trekkers.",
    createdAt: now - 5 * 86400000,
  });

  await addMember(ctx, { communityId: hsr.id, userId: u.rahul });
  await addMember(ctx, { communityId: hsr.id, userId: u.kavya, role: "moderator" });
  await addMember(ctx, { communityId: hsr.id, userId: u.vikram, status: "pending" });
  await addMember(ctx, { communityId: rmz.id, userId: u.priya });
  await addMember(ctx, { communityId: rmz.id, userId: u.sneha, status: "pending" });
  await addMember(ctx, { communityId: manyata.id, userId: u.irfan });
  await addMember(ctx, { communityId: manyata.id, userId: u.rahul });
  await addMember(ctx, { communityId: manyata.id, userId: u.vikram, status: "rejected" });
  await addMember(ctx, { communityId: trek.id, userId: u.sneha });

  const r1 = await createRide(ctx, {
    driverId: u.priya,
    fromLocation: "HSR Layout",
    toLocation: "RMZ Ecospace",
    date: day(1),
    time: "08:45",
    seats: 3,
    tripCostPaise: 24000,
    communityId: hsr.id,
    notes: "Leaving from 27th Main. AC car, no smoking please.",
  });
  const r2 = await createRide(ctx, {
    driverId: u.arjun,
    fromLocation: "Whitefield ITPL",
    toLocation: "Indiranagar",
    date: day(1),
    time: "18:30",
    seats: 4,
    tripCostPaise: 36000,
    notes: "Electric car, quiet ride.",
  });
  const r3 = await createRide(ctx, {
    driverId: u.ananya,
    fromLocation: "Indiranagar",
    toLocation: "Manyata Tech Park",
    date: day(2),
    time: "09:00",
    seats: 3,
    tripCostPaise: 30000,
    communityId: manyata.id,
  });
  const r4 = await createRide(ctx, {
    driverId: u.irfan,
    fromLocation: "Hebbal",
    toLocation: "Kempegowda International Airport",
    date: day(3),
    time: "05:30",
    seats: 2,
    tripCostPaise: 60000,
    notes: "Airport drop, room for one cabin bag each.",
  });
  const r5 = await createRide(ctx, {
    driverId: u.priya,
    fromLocation: "Koramangala",
    toLocation: "MG Road",
    date: day(4),
    time: "19:00",
    seats: 2,
    tripCostPaise: 15000,
  });
  const r6 = await createRide(ctx, {
    driverId: u.arjun,
    fromLocation: "Marathahalli",
    toLocation: "Electronic City Phase 1",
    date: day(5),
    time: "08:00",
    seats: 4,
    tripCostPaise: 48000,
  });
  await createRide(ctx, {
    driverId: u.ananya,
    fromLocation: "Malleshwaram",
    toLocation: "Majestic Bus Station",
    date: day(6),
    time: "07:15",
    seats: 3,
    tripCostPaise: 12000,
  });
  await createRide(ctx, {
    driverId: u.irfan,
    fromLocation: "Yelahanka",
    toLocation: "Manyata Tech Park",
    date: day(2),
    time: "08:30",
    seats: 3,
    tripCostPaise: 27000,
    communityId: manyata.id,
  });

  await createRideRequest(ctx, {
    rideId: r1.id,
    riderId: u.rahul,
    seats: 1,
    status: "accepted",
    notes: "I'll wait at the Sector 2 bus stop.",
  });
  await createRideRequest(ctx, {
    rideId: r1.id,
    riderId: u.kavya,
    seats: 1,
    status: "pending",
    notes: "Can you pick me up near Agara Lake?",
  });
  await createRideRequest(ctx, { rideId: r2.id, riderId: u.sneha, seats: 2, status: "pending" });
  await createRideRequest(ctx, { rideId: r3.id, riderId: u.rahul, seats: 1, status: "accepted" });
  await createRideRequest(ctx, { rideId: r3.id, riderId: u.vikram, seats: 1, status: "rejected" });
  await createRideRequest(ctx, { rideId: r4.id, riderId: u.kavya, seats: 1, status: "cancelled" });
  await createRideRequest(ctx, { rideId: r5.id, riderId: u.sneha, seats: 1, status: "pending" });
  await createRideRequest(ctx, { rideId: r6.id, riderId: u.vikram, seats: 2, status: "accepted" });

  await createNotification(ctx, {
    userId: u.priya,
    type: "ride_request",
    title: "New ride request",
    message: "Kavya Nair requested 1 seat on your ride to RMZ Ecospace.",
    data: { ride_id: r1.id },
    createdAt: now - 3600000,
  });
  await createNotification(ctx, {
    userId: u.rahul,
    type: "ride_update",
    title: "Request accepted",
    message: "Priya Sharma accepted your request for HSR Layout → RMZ Ecospace.",
    data: { ride_id: r1.id, status: "accepted" },
    createdAt: now - 7200000,
  });
  await createMessage(ctx, {
    senderId: u.kavya,
    receiverId: u.priya,
    content: "Hi Priya! Could you pick me up near Agara Lake tomorrow?",
    createdAt: now - 3000000,
  });
  await createMessage(ctx, {
    senderId: u.priya,
    receiverId: u.kavya,
    content: "Sure, I'll pass by around 8:50.",
    createdAt: now - 2900000,
    read: false,
  });

  const history = await seedHistory(ctx, u, { hsr, manyata }, day);
  // The rest of the city (issue 38): its members sign in with the same password.
  const city = await seedCity(ctx, { now, passwordHash: await hashPassword(DEMO_PASSWORD, pepper) });

  return { users: u, communities: { hsr, rmz, manyata, trek }, rides: { r1, r2, r3, r4, r5, r6 }, history, city };
}

/**
 * A lived-in city: eight weeks of completed commutes (the dashboard's Total Rides,
 * Co-Passengers, Traffic Hours and savings chart read them), each with one payment per
 * rider from the app's cost split, settled (the most recent ones still awaiting payment)
 * and rated both ways. Days are counted back from today in IST, so the history moves with
 * "now" and is the same on every run; every ride departed at least a day ago.
 */
async function seedHistory(
  ctx: Ctx,
  u: Record<Key, string>,
  c: { hsr: { id: string; name: string; type: string }; manyata: { id: string; name: string; type: string } },
  day: (n: number) => string,
) {
  const name = (k: Key) => DEMO_USERS.find((d) => d.key === k)!.fullName;
  const rated = (driver: Key, riders: Key[], i: number) =>
    riders.flatMap((r, j) => [
      { raterId: u[r], rateeId: u[driver], stars: (i + j) % 4 === 0 ? 4 : 5 },
      { raterId: u[driver], rateeId: u[r], stars: 5 },
    ]);
  const done: { id: string }[] = [];
  const ride = async (
    driver: Key,
    riders: Key[],
    o: {
      daysAgo: number;
      from: string;
      to: string;
      time: string;
      seats: number;
      cost: number;
      community?: { id: string; name: string; type: string };
      paid?: "pending" | "paid" | "received";
    },
    i: number,
  ) => {
    done.push(
      await createCompletedRide(ctx, {
        driverId: u[driver],
        fromLocation: o.from,
        toLocation: o.to,
        date: day(-o.daysAgo),
        time: o.time,
        seats: o.seats,
        tripCostPaise: o.cost,
        communityId: o.community?.id ?? null,
        // Split only where the driver and every rider are approved members (as completing decides).
        split: Boolean(o.community),
        community: o.community ? { name: o.community.name, type: o.community.type } : null,
        riders: riders.map((r) => ({ riderId: u[r], name: name(r) })),
        paymentStatus: o.paid ?? "received",
        ratings: rated(driver, riders, i),
      }),
    );
  };
  for (let w = 0; w < 8; w++) {
    // Priya's Monday-ish run to RMZ Ecospace with her HSR neighbours (a community split).
    await ride(
      "priya",
      w % 3 === 2 ? ["rahul"] : ["rahul", "kavya"],
      {
        daysAgo: 3 + 7 * w,
        from: "HSR Layout",
        to: "RMZ Ecospace",
        time: "08:45",
        seats: 3,
        cost: 24000,
        community: c.hsr,
        paid: w === 0 ? "paid" : "received",
      },
      w,
    );
    // Ananya to Manyata Tech Park with Manyata colleagues (split).
    await ride(
      "ananya",
      ["rahul", "irfan"],
      {
        daysAgo: 2 + 7 * w,
        from: "Indiranagar",
        to: "Manyata Tech Park",
        time: "09:00",
        seats: 3,
        cost: 30000,
        community: c.manyata,
        paid: w === 0 ? "pending" : "received",
      },
      w,
    );
  }
  for (let k = 0; k < 4; k++) {
    // Arjun's evening ride priced per seat (no shared community).
    await ride(
      "arjun",
      k % 2 === 0 ? ["priya", "sneha"] : ["priya"],
      { daysAgo: 6 + 14 * k, from: "Whitefield ITPL", to: "Koramangala", time: "18:30", seats: 4, cost: 36000 },
      k,
    );
    // Irfan's ₹200 ride with 3 seats: ₹66.66 a seat, the driver covering the 2 paise left.
    await ride(
      "irfan",
      ["vikram"],
      { daysAgo: 5 + 14 * k, from: "Hebbal", to: "Manyata Tech Park", time: "08:30", seats: 3, cost: 20000 },
      k,
    );
  }
  return done;
}
