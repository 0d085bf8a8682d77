// The living demo city (issue 38, item 1): hundreds of members over the city's localities,
// communities of every type, weekly commutes and one-off rides through both peaks, requests,
// chats, notifications and eight weeks of history. Built from the factories' pure builders
// and a seeded PRNG, so every run writes the same city (dates move with "now"). The demo
// users of db/seed.ts are left out of it: their journeys and the README depend on their data.
import { getTableColumns, getTableName, sql, type Table } from "drizzle-orm";
import { MAIN_TECH_PARKS } from "../app/domain/curated-places";
import { suggestTripCost } from "../app/domain/trip-cost";
import type { CarType } from "../app/domain/ride-limits";
import { addDays, istDate } from "../app/domain/time";
import { topUpCommutesAndBookings } from "../app/models/commutes.server";
import type { Db } from "../app/models/db.server";
import { placeByName } from "../app/models/places.server";
import {
  buildCommunity,
  buildCommute,
  buildMember,
  buildMessage,
  buildNotification,
  buildRide,
  buildRideRequest,
  buildUser,
  buildCompletedRide,
  idFrom,
  seededRandom,
} from "./factories";
import {
  communities,
  communityMembers,
  commutes,
  conversations,
  messages,
  notifications,
  passwords,
  payments,
  rideRatings,
  rideRequests,
  rides,
  userProfiles,
  userSettings,
  users,
} from "./schema";

/** The localities a newcomer most often starts from: each reaches every main tech park at 9:00. */
export const COMMON_LOCALITIES = [
  "HSR Layout",
  "Koramangala",
  "Indiranagar",
  "Jayanagar",
  "JP Nagar",
  "BTM Layout",
  "Marathahalli",
  "Hebbal",
  "Yelahanka",
  "Malleshwaram",
  "Bellandur",
  "Basavanagudi",
  "Domlur",
  "Banaswadi",
  "Whitefield",
  "Rajajinagar",
  "Vijayanagar",
  "R T Nagar",
  "Kalyananagar",
  "Banashankari",
] as const;

export { MAIN_TECH_PARKS };

/** Further localities members live in (the gazetteer's names, all within ~14 km of MG Road). */
const MORE_LOCALITIES = [
  "Adugodi",
  "Agara",
  "Austin Town",
  "Banashankari III Stage",
  "Basaveshwaranagar",
  "Benson Town",
  "Bannerghatta Road",
  "Bommanahalli",
  "C.V.Raman Nagar",
  "Chamrajpet",
  "Doddanekkundi",
  "Fraser Town",
  "Hoodi",
  "Jalahalli",
  "Jayanagar East",
  "Jeevanbhimanagar",
  "Koramangala VI Bk",
  "Lingarajapuram",
  "Magadi Road",
  "Mahalakshmipuram Layout",
  "Mathikere",
  "Nagarbhavi",
  "Sadashivanagar",
  "Seshadripuram",
  "Vidyaranyapura",
  "Yeshwanthpur Bazar",
  "Kadugodi",
  "Krishnarajapuram",
  "Sahakaranagar",
  "Jakkur",
  "Hulimavu",
  "Kengeri",
  "Peenya I Stage",
  "Devasandra",
  "Chikkalasandra",
  "Sampangiramnagar",
  "Ashoknagar",
  "Deepanjalinagar",
  "Gayathrinagar",
  "Hampinagar",
  "Anandnagar",
  "Amruthahalli",
] as const;

const WORKPLACES = [
  ...MAIN_TECH_PARKS,
  "Embassy Tech Village",
  "Prestige Tech Park",
  "Global Village Tech Park",
  "MG Road",
  "UB City",
] as const;

const FEMALE = [
  "Aditi",
  "Bhavana",
  "Deepa",
  "Divya",
  "Harini",
  "Jyoti",
  "Lakshmi",
  "Meera",
  "Neha",
  "Pooja",
  "Sanjana",
  "Shreya",
  "Tanvi",
  "Vidya",
  "Zoya",
  "Nandini",
  "Swathi",
  "Rekha",
  "Asha",
  "Farah",
] as const;
const MALE = [
  "Aarav",
  "Akash",
  "Chetan",
  "Farhan",
  "Gautam",
  "Ishaan",
  "Karthik",
  "Manoj",
  "Naveen",
  "Pradeep",
  "Ramesh",
  "Rohan",
  "Siddharth",
  "Suresh",
  "Uday",
  "Varun",
  "Yash",
  "Imran",
  "Nikhil",
  "Abhishek",
] as const;
// No surname of a demo user: journeys look for those people by name.
const SURNAMES = [
  "Gowda",
  "Hegde",
  "Shetty",
  "Menon",
  "Pillai",
  "Patil",
  "Bhat",
  "Kamath",
  "Desai",
  "Joshi",
  "Mehta",
  "Naidu",
  "Pai",
  "Prabhu",
  "Srinivasan",
  "Krishnan",
  "Fernandes",
  "Khan",
  "Siddiqui",
  "Agarwal",
] as const;

const INTERESTS = [
  "Cubbon Park Runners",
  "Nandi Hills Sunrise Cyclists",
  "Lalbagh Morning Walkers",
  "Weekend Trekkers",
  "Board Game Nights",
  "Carnatic Music Circle",
  "Startup Founders Breakfast",
  "Craft Beer Trail",
  "Book Club",
  "Photography Walks",
  "Badminton League",
  "Cricket Sundays",
] as const;
const COMPANIES = [
  "Infosys",
  "Wipro",
  "Flipkart",
  "Swiggy",
  "Razorpay",
  "Intuit",
  "SAP Labs",
  "Cisco",
  "Accenture",
  "Goldman Sachs",
  "Target",
  "Walmart Labs",
] as const;

const PASSES = [
  "Leaving from the main road, near the bus stop.",
  "AC car, no smoking please.",
  "Quiet ride, podcasts welcome.",
  "Can pick up along the way if it is on the route.",
  null,
  null,
] as const;

const CHATS = [
  ["Hi! Is there a seat for tomorrow morning?", "Yes, one seat left. See you at the bus stop.", "Thanks!"],
  ["Could you pick me up near the metro station?", "Sure, I'll pass there around five past."],
  ["Running 5 minutes late, sorry!", "No problem, I'll wait."],
  ["Are you driving back in the evening too?", "Yes, leaving at 6:30 from the main gate.", "Great, count me in."],
] as const;

// ---------------------------------------------------------------- multi-row inserts

// Rows go in as multi-row INSERTs of escaped literals, a few statements a batch: D1 binds at
// most 100 parameters a statement, and statement by statement the city took a minute through
// the local proxy (the bench seed, scripts/bench/seed.ts, measured the same).
const MAX_STATEMENT = 90_000; // bytes; D1 refuses statements over 100 KB

type Col = { name: string; default?: unknown; mapToDriverValue: (v: unknown) => unknown };

function literal(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`seed-city: not a finite number: ${v}`);
    return String(v);
  }
  if (typeof v === "boolean") return v ? "1" : "0";
  if (typeof v === "string") return `'${v.replaceAll("'", "''")}'`;
  throw new Error(`seed-city: cannot inline ${typeof v}`);
}

/** The INSERT statements for `rows` (as the builders return them), columns mapped by drizzle. */
function inserts<T extends Table>(table: T, rows: T["$inferInsert"][]): string[] {
  if (rows.length === 0) return [];
  const list = rows as Record<string, unknown>[];
  const cols = Object.entries(getTableColumns(table)) as unknown as [string, Col][];
  const used = cols.filter(([key]) => list.some((r) => r[key] !== undefined));
  const head = `INSERT INTO "${getTableName(table)}" (${used.map(([, c]) => `"${c.name}"`).join(", ")}) VALUES `;
  const out: string[] = [];
  let values: string[] = [];
  let len = head.length;
  for (const row of list) {
    const tuple = `(${used
      .map(([key, col]) => {
        // SQLite has no DEFAULT inside VALUES: a missing value takes the column's plain default.
        const v = row[key] ?? (col.default !== undefined && typeof col.default !== "object" ? col.default : null);
        return literal(v === null ? null : col.mapToDriverValue(v));
      })
      .join(",")})`;
    if (values.length > 0 && len + tuple.length + 1 > MAX_STATEMENT) {
      out.push(head + values.join(","));
      values = [];
      len = head.length;
    }
    values.push(tuple);
    len += tuple.length + 1;
  }
  out.push(head + values.join(","));
  return out;
}

async function run(db: Db, statements: string[]) {
  const d1 = db.$client;
  for (let i = 0; i < statements.length; i += 40) await d1.batch(statements.slice(i, i + 40).map((s) => d1.prepare(s)));
}

type Member = {
  id: string;
  name: string;
  female: boolean;
  home: string;
  work: string;
  car: CarType | null;
  communities: string[];
};

export type CityCounts = {
  members: number;
  communities: number;
  commutes: number;
  oneOffRides: number;
  completedRides: number;
};

/**
 * Writes the city. `passwordHash`: every member signs in with the demo password (hashed once:
 * one hash per member would be most of the seed's time).
 */
export async function seedCity(
  { db }: { db: Db },
  { now, passwordHash }: { now: number; passwordHash: string },
): Promise<CityCounts> {
  const random = seededRandom(38);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const chance = (p: number) => random() < p;
  const id = () => idFrom(random);
  const DAY = 86_400_000;
  const today = istDate(now);
  const day = (n: number) => addDays(today, n);

  // ------------------------------------------------------------ members
  // The first 100 drive the commutes that cover every common locality to every main tech park
  // (they live and work there); the next 40 drive the other commutes; the rest mix.
  const members: Member[] = [];
  const userRows: ReturnType<typeof buildUser>[] = [];
  const usedNames = new Set<string>();
  const MEMBERS = 320;
  const LOCALITIES = [...COMMON_LOCALITIES, ...MORE_LOCALITIES];
  for (let i = 0; i < MEMBERS; i++) {
    const female = i % 5 === 1 || i % 5 === 3;
    let name = "";
    do name = `${pick(female ? FEMALE : MALE)} ${pick(SURNAMES)}`;
    while (usedNames.has(name));
    usedNames.add(name);
    const covering = i < 100;
    // Every locality has residents; beyond those, half the city lives in the common ones.
    const home = covering
      ? COMMON_LOCALITIES[i % 20]!
      : i < 100 + LOCALITIES.length
        ? LOCALITIES[i - 100]!
        : chance(0.5)
          ? pick(COMMON_LOCALITIES)
          : pick(MORE_LOCALITIES);
    const work = covering ? MAIN_TECH_PARKS[Math.floor(i / 20)]! : pick(WORKPLACES);
    const car: CarType | null =
      i < 140 || chance(0.3) ? pick(["petrol", "petrol", "diesel", "hybrid", "electric"] as const) : null;
    const createdAt = now - Math.floor(20 + random() * 160) * DAY;
    const uid = id();
    const [first, last] = name.split(" ");
    const rows = buildUser({
      id: uid,
      random,
      email: `${first!.toLowerCase()}.${last!.toLowerCase()}@city.loopride.in`,
      fullName: name,
      passwordHash,
      createdAt,
      emailVerifiedAt: createdAt,
      profile: {
        residentialArea: home,
        workplace: work,
        phoneNumber: `9${String(700000000 + i * 7919).padStart(9, "0")}`,
        // No car is the builder's own default (has_car false).
        ...(car ? { vehicleInfo: { has_car: true, car_type: car } } : {}),
        gender: female ? "female" : "male",
        bio: `${first} commutes from ${home} to ${work}.`,
        musicPreference: pick(["quiet", "low", "moderate", "moderate", "high"]),
      },
    });
    userRows.push(rows);
    members.push({ id: uid, name, female, home, work, car, communities: [] });
  }
  // No accidental duplicates of the gazetteer: every place the city names must resolve.
  for (const p of [...LOCALITIES, ...WORKPLACES]) if (!placeByName(p)) throw new Error(`seed-city: unknown place ${p}`);

  // ------------------------------------------------------------ communities
  type Built = ReturnType<typeof buildCommunity> & { approved: number };
  const built: Built[] = [];
  const byName = new Map<string, Built>();
  const addCommunity = (
    name: string,
    type: "residential" | "workplace" | "interest",
    location: string,
    description: string,
    creator: Member,
  ) => {
    const c = {
      ...buildCommunity({
        id: id(),
        memberId: id(),
        createdBy: creator.id,
        name,
        type,
        location: `${location}, Bengaluru`,
        description,
        createdAt: now - Math.floor(15 + random() * 120) * DAY,
      }),
      approved: 1,
    };
    built.push(c);
    byName.set(name, c);
    creator.communities.push(c.community.id);
    return c;
  };
  const livesIn = (place: string) => members.filter((m) => m.home === place);
  const worksAt = (place: string) => members.filter((m) => m.work === place);
  for (const [i, place] of LOCALITIES.slice(0, 44).entries()) {
    const founder = livesIn(place)[0] ?? members[100 + i]!;
    addCommunity(
      i % 2 === 0 ? `${place} Residents Carpool` : `${place} Neighbours`,
      "residential",
      place,
      `Neighbours in ${place} sharing the daily drive to the tech parks.`,
      founder,
    );
  }
  for (let i = 0; i < 44; i++) {
    const park = WORKPLACES[i % WORKPLACES.length]!;
    const company = COMPANIES[i % COMPANIES.length]!;
    const founder = worksAt(park)[Math.floor(i / WORKPLACES.length)] ?? members[i]!;
    addCommunity(
      `${company} at ${park}`,
      "workplace",
      park,
      `${company} colleagues at ${park} pooling cars from across the city.`,
      founder,
    );
  }
  const AREAS = ["North Bengaluru", "South Bengaluru", "East Bengaluru", "West Bengaluru"] as const;
  for (let i = 0; i < 44; i++) {
    const area = AREAS[Math.floor(i / INTERESTS.length) % AREAS.length]!;
    addCommunity(
      `${INTERESTS[i % INTERESTS.length]}, ${area}`,
      "interest",
      area,
      `Rides to and from ${INTERESTS[i % INTERESTS.length]!.toLowerCase()} meet-ups.`,
      members[(i * 7 + 3) % MEMBERS]!,
    );
  }
  // Members join their locality's and workplace's communities (mostly approved) and now and
  // then an interest; a few wait for a moderator.
  const memberRows: (typeof communityMembers.$inferInsert)[] = built.map((c) => c.admin);
  const join = (m: Member, c: Built | undefined) => {
    if (!c || m.communities.includes(c.community.id)) return;
    const status = chance(0.9) ? "approved" : "pending";
    memberRows.push(
      buildMember({
        id: id(),
        communityId: c.community.id,
        userId: m.id,
        status,
        role: status === "approved" && chance(0.05) ? "moderator" : "member",
        at: c.community.createdAt + Math.floor(random() * 10) * DAY,
      }),
    );
    if (status === "approved") {
      m.communities.push(c.community.id);
      c.approved++;
    }
  };
  const residentialOf = (place: string) =>
    byName.get(`${place} Residents Carpool`) ?? byName.get(`${place} Neighbours`);
  const workplaces = built.filter((c) => c.community.type === "workplace");
  const interests = built.filter((c) => c.community.type === "interest");
  for (const m of members) {
    join(m, residentialOf(m.home));
    join(m, pick(workplaces.filter((c) => c.community.location.startsWith(m.work))));
    if (chance(0.4)) join(m, pick(interests));
  }
  const communityRows = built.map((c) => ({ ...c.community, memberCount: c.approved }));
  const communityOf = (m: Member) => {
    const c = residentialOf(m.home);
    return c && m.communities.includes(c.community.id) ? c.community.id : null;
  };

  // ------------------------------------------------------------ commutes
  // A seat's price from the app's own fair cost (suggestTripCost for the driver's car, split
  // over the seats as the label splits it), with the spread of a real city: most drivers ask
  // about the fair share, some less, some more (ADR 0054's bands: 80 % and 120 %). One draw
  // of the PRNG per price, so the rest of the city stays as it was.
  const cost = (from: string, to: string, car: CarType | null, seats: number) => {
    const fair = suggestTripCost(from, to, car ?? "petrol", placeByName)?.paise ?? 20000;
    const u = random();
    const spread =
      u < 0.15
        ? 0.55 + (u / 0.15) * 0.2
        : u < 0.85
          ? 0.85 + ((u - 0.15) / 0.7) * 0.3
          : 1.25 + ((u - 0.85) / 0.15) * 0.45;
    // Whole rupees a seat, at least ₹5; the trip is the seats' sum, so the
    // seat shown is exactly this price.
    return Math.max(5, Math.round((fair / seats / 100) * spread)) * 100 * seats;
  };
  const commuteRows: ReturnType<typeof buildCommute>[] = [];
  const commuteDriver = new Map<string, Member>();
  const coverTimes = ["08:50", "08:55", "09:00", "09:05", "09:10"];
  for (let i = 0; i < 140; i++) {
    const driver = members[i]!;
    // Coverage commutes are public; of the others, a third keep to the driver's neighbours,
    // and half run the evening leg home.
    const covering = i < 100;
    const evening = !covering && i % 2 === 0;
    const from = evening ? driver.work : driver.home;
    const to = evening ? driver.home : driver.work;
    if (from === to) continue;
    // In the order the PRNG was always drawn in (the id first), so the city is the same.
    const commuteId = id();
    const weekdays = covering || chance(0.7) ? 0b0111110 : 0b0101010;
    const time = covering
      ? pick(coverTimes)
      : pick(evening ? ["18:00", "18:15", "18:30", "19:00"] : ["08:00", "08:30"]);
    const seats = 3 + Math.floor(random() * 2);
    const row = buildCommute({
      id: commuteId,
      driverId: driver.id,
      fromLocation: from,
      toLocation: to,
      weekdays,
      time,
      seats,
      tripCostPaise: cost(from, to, driver.car, seats),
      vehicleType: driver.car,
      communityId: !covering && i % 3 === 0 ? communityOf(driver) : null,
      startDate: day(-Math.floor(random() * 30)),
      now: now - 30 * DAY,
    });
    commuteRows.push(row);
    commuteDriver.set(row.id, driver);
  }

  // ------------------------------------------------------------ one-off rides
  const rideRows: ReturnType<typeof buildRide>[] = [];
  const requestRows: ReturnType<typeof buildRideRequest>[] = [];
  const notificationRows: ReturnType<typeof buildNotification>[] = [];
  const drivers = members.filter((m) => m.car);
  const riders = members.filter((m) => !m.car);
  const hhmm = (minute: number) =>
    `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
  for (let i = 0; i < 240; i++) {
    const driver = drivers[(i * 13) % drivers.length]!;
    const morning = i % 5 !== 4;
    const from = morning ? driver.home : driver.work;
    const to = morning ? driver.work : driver.home;
    if (from === to) continue;
    const date = day(1 + (i % 7));
    const time = hhmm(
      morning ? 7 * 60 + 30 + Math.floor(random() * 31) * 5 : 17 * 60 + 30 + Math.floor(random() * 31) * 5,
    );
    const community = chance(0.2) ? communityOf(driver) : null;
    const womenOnly = driver.female && !community && chance(0.35);
    const seats = 2 + Math.floor(random() * 3);
    const ride = {
      ...buildRide({
        id: id(),
        driverId: driver.id,
        fromLocation: from,
        toLocation: to,
        date,
        time,
        seats,
        tripCostPaise: cost(from, to, driver.car, seats),
        vehicleType: driver.car,
        communityId: community,
        notes: pick(PASSES),
        now: now - Math.floor(random() * 5) * DAY,
      }),
      womenOnly,
    };
    // Up to two requests from riders who may book it: accepted ones take their seats.
    let booked = 0;
    const eligible = riders.filter(
      (r) => (!womenOnly || r.female) && (!community || r.communities.includes(community)),
    );
    const wanted = Math.floor(random() * 3);
    const asked = new Set<string>();
    for (let k = 0; k < wanted && eligible.length > 0; k++) {
      const rider = pick(eligible);
      if (asked.has(rider.id)) continue;
      asked.add(rider.id);
      const status = booked < seats - 1 && chance(0.6) ? "accepted" : chance(0.8) ? "pending" : "rejected";
      if (status === "accepted") booked++;
      const at = Math.min(now - 2 * 3_600_000, ride.createdAt + Math.floor(random() * 20) * 3_600_000);
      requestRows.push(buildRideRequest({ id: id(), rideId: ride.id, riderId: rider.id, status, createdAt: at }));
      notificationRows.push(
        buildNotification({
          id: id(),
          userId: driver.id,
          type: "ride_request",
          title: "New ride request",
          message: `${rider.name} requested 1 seat on your ride to ${to}.`,
          data: { ride_id: ride.id },
          read: status !== "pending",
          createdAt: at,
        }),
      );
      if (status !== "pending")
        notificationRows.push(
          buildNotification({
            id: id(),
            userId: rider.id,
            type: "ride_update",
            title: status === "accepted" ? "Request accepted" : "Request declined",
            message: `${driver.name} ${status === "accepted" ? "accepted" : "declined"} your request for ${from} → ${to}.`,
            data: { ride_id: ride.id, status },
            read: chance(0.5),
            createdAt: at + 3_600_000,
          }),
        );
    }
    rideRows.push({ ...ride, bookedSeats: booked });
  }

  // ------------------------------------------------------------ chats
  // Riders and their drivers; the conversation row as it stands after the last message.
  const messageRows: ReturnType<typeof buildMessage>["message"][] = [];
  const conversationRows = new Map<string, ReturnType<typeof buildMessage>["conversation"]>();
  const accepted = requestRows.filter((r) => r.status === "accepted").slice(0, 120);
  for (const [k, r] of accepted.entries()) {
    const ride = rideRows.find((x) => x.id === r.rideId)!;
    const lines = CHATS[k % CHATS.length]!;
    for (const [j, content] of lines.entries()) {
      const sender = j % 2 === 0 ? r.riderId : ride.driverId;
      const receiver = j % 2 === 0 ? ride.driverId : r.riderId;
      const built = buildMessage({
        id: id(),
        senderId: sender,
        receiverId: receiver,
        content,
        createdAt: Math.min(now - 60_000, r.createdAt + (j + 1) * 600_000),
        read: j < lines.length - 1 || chance(0.5),
      });
      messageRows.push(built.message);
      const prev = conversationRows.get(built.conversation.id);
      conversationRows.set(
        built.conversation.id,
        prev ? { ...built.conversation, createdAt: prev.createdAt } : built.conversation,
      );
    }
  }
  // Community news for new members.
  for (const m of members.slice(140, 240))
    if (m.communities[0])
      notificationRows.push(
        buildNotification({
          id: id(),
          userId: m.id,
          type: "community",
          title: "Welcome to your community",
          message: "Your request to join was approved.",
          data: { community_id: m.communities[0] },
          read: chance(0.7),
          createdAt: now - Math.floor(random() * 10) * DAY,
        }),
      );

  // ------------------------------------------------------------ history
  // Eight weeks of completed rides between members, paid and rated (drivers' ratings and the
  // dashboards' totals come from these). Inserted completed: the stats triggers count only
  // active rides, so nothing passes through them.
  const history: ReturnType<typeof buildCompletedRide>[] = [];
  for (let i = 0; i < 80; i++) {
    const driver = drivers[(i * 7) % drivers.length]!;
    const from = driver.home;
    const to = driver.work;
    if (from === to) continue;
    const takers = riders.filter((r) => r.home === from || r.work === to).slice(0, 2);
    const group = takers.length > 0 ? takers : [riders[i % riders.length]!];
    const ago = 1 + ((i * 5) % 56);
    history.push(
      buildCompletedRide({
        random,
        driverId: driver.id,
        fromLocation: from,
        toLocation: to,
        date: day(-ago),
        time: pick(["08:30", "08:45", "09:00", "18:30"]),
        seats: 3,
        tripCostPaise: cost(from, to, driver.car, 3),
        vehicleType: driver.car,
        riders: group.map((r) => ({ riderId: r.id, name: r.name })),
        paymentStatus: i % 9 === 0 ? "pending" : "received",
        ratings: group.flatMap((r, j) => [
          { raterId: r.id, rateeId: driver.id, stars: (i + j) % 5 === 0 ? 4 : 5 },
          { raterId: driver.id, rateeId: r.id, stars: 5 },
        ]),
        createdAt: now - (ago + 2) * DAY,
      }),
    );
  }

  await run(db, [
    ...inserts(
      users,
      userRows.map((r) => r.user),
    ),
    ...inserts(
      userSettings,
      userRows.map((r) => r.settings),
    ),
    ...inserts(
      userProfiles,
      userRows.map((r) => r.profile!),
    ),
    ...inserts(
      passwords,
      userRows.map((r) => r.password!),
    ),
    ...inserts(communities, communityRows),
    ...inserts(communityMembers, memberRows),
    ...inserts(commutes, commuteRows),
    ...inserts(rides, [...rideRows, ...history.map((h) => h.ride)]),
    ...inserts(rideRequests, [...requestRows, ...history.flatMap((h) => h.requests)]),
    ...inserts(
      payments,
      history.flatMap((h) => h.payments),
    ),
    ...inserts(
      rideRatings,
      history.flatMap((h) => h.ratings),
    ),
    ...inserts(conversations, [...conversationRows.values()]),
    ...inserts(messages, messageRows),
    ...inserts(notifications, notificationRows),
  ]);
  // The commutes' next two weeks, as the daily cron makes them.
  await topUpCommutesAndBookings({ db }, now);
  // The seeded notifications are the city's past, not news: their e-mails and pushes (queued
  // by the notifications_outbox trigger) would flood the development mailbox on first start.
  await db.run(sql`DELETE FROM outbox WHERE user_id IN (SELECT id FROM users WHERE email LIKE '%@city.loopride.in')`);

  return {
    members: members.length,
    communities: communityRows.length,
    commutes: commuteRows.length,
    oneOffRides: rideRows.length,
    completedRides: history.length,
  };
}
