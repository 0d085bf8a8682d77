// Mixed load through the real HTML forms: many signed-in users at once browse pages,
// offer rides, request seats, accept requests and send messages. Shared by
// `npm run bench` (against the large dataset) and test/e2e/load.spec.ts (against the e2e
// server). Loopback only; every request is bounded by a timeout. A 5xx or a network
// error is an error; 4xx answers (ride full, request already live) are expected outcomes
// of the race and only counted.
import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";

const ID = /^[a-z0-9]{1,64}$/;
const STALE_SOCKET = new Set(["UND_ERR_SOCKET", "ECONNRESET"]);
const describe = (e) => `${e?.message ?? e}${e?.cause ? ` (${e.cause.code ?? ""} ${e.cause.message ?? ""})` : ""}`;

/** A tiny browser: cookie jar, same-origin headers on POST, no redirect following. */
export class Client {
  constructor(baseURL, { timeoutMs = 30_000 } = {}) {
    this.base = new URL(baseURL).origin;
    this.cookies = new Map();
    this.timeoutMs = timeoutMs;
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  keep(res) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(path, init = {}) {
    const res = await fetch(new URL(path, this.base), {
      redirect: "manual",
      signal: AbortSignal.timeout(this.timeoutMs),
      ...init,
      headers: { Cookie: this.cookieHeader(), ...init.headers },
    });
    this.keep(res);
    return res;
  }

  async get(path) {
    let res;
    try {
      res = await this.request(path);
    } catch (e) {
      // A kept-alive connection the server closed just as it was reused: browsers retry an
      // idempotent request once in that case, and so do we (counted, never for POSTs). The
      // resend goes on a connection of its own: the pool's next kept-alive connection can be
      // just as stale (on a slow machine one was, and the load test failed on the resend).
      if (!STALE_SOCKET.has(e?.cause?.code)) throw e;
      this.retried = (this.retried ?? 0) + 1;
      return this.onFreshConnection("GET", path);
    }
    return { status: res.status, location: res.headers.get("Location"), text: await res.text(), headers: res.headers };
  }

  /**
   * A POST goes out on a connection of its own (no keep-alive), never on a reused one. On a
   * kept-alive connection the server may close as it sits idle, a POST that meets the close
   * fails with "other side closed" before the server has read it: a browser resends it then,
   * undici's fetch does not (a POST is not idempotent), and the load test counted it as a
   * network error. A fresh connection cannot be stale, so any error left is the server's.
   */
  async post(path, fields) {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) body.append(k, String(v));
    return this.onFreshConnection("POST", path, Buffer.from(body.toString()));
  }

  /** One request on a new connection (`agent: false`), with this client's cookies; a POST carries a form. */
  async onFreshConnection(method, path, payload) {
    const url = new URL(path, this.base);
    const form = payload
      ? {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": payload.length,
          Origin: this.base,
          "Sec-Fetch-Site": "same-origin",
        }
      : {};
    const res = await new Promise((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method,
          agent: false,
          signal: AbortSignal.timeout(this.timeoutMs),
          headers: { Cookie: this.cookieHeader(), ...form },
        },
        (r) => {
          const chunks = [];
          r.on("data", (c) => chunks.push(c));
          r.on("end", () => {
            const headers = new Headers();
            for (let i = 0; i < r.rawHeaders.length; i += 2) headers.append(r.rawHeaders[i], r.rawHeaders[i + 1]);
            resolve({ status: r.statusCode, headers, text: Buffer.concat(chunks).toString("utf8") });
          });
          r.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
    this.keep(res);
    return { status: res.status, location: res.headers.get("Location"), text: res.text, headers: res.headers };
  }
}

/** Signs in through the real /login form; resolves to the client holding the session cookie. */
export async function signIn(baseURL, identifier, password) {
  const client = new Client(baseURL);
  const res = await client.post("/login", { identifier, password, redirectTo: "" });
  if (res.status !== 302 || res.location?.startsWith("/login"))
    throw new Error(`sign-in of ${identifier} failed: ${res.status} ${res.text.slice(0, 200)}`);
  return client;
}

/** Signs up through /signup and completes the four onboarding steps, as a person would. */
export async function signUpAndOnboard(baseURL, { fullName, email, password, phone, car = "petrol" }) {
  const client = new Client(baseURL);
  const steps = [
    ["/signup", { fullName, identifier: email, password }],
    ["/onboarding", { step: 1, intent: "next", phone }],
    [
      "/onboarding",
      car ? { step: 2, intent: "next", hasCar: "yes", carType: car } : { step: 2, intent: "next", hasCar: "no" },
    ],
    ["/onboarding", { step: 3, intent: "next", referralCode: "" }],
    ["/onboarding", { step: 4, intent: "complete" }],
  ];
  for (const [path, fields] of steps) {
    const res = await client.post(path, fields);
    if (res.status !== 302)
      throw new Error(
        `sign-up of ${email}: ${path} step ${fields.step ?? 0} answered ${res.status} ${res.text.slice(0, 300)}`,
      );
  }
  const dash = await client.get("/dashboard");
  if (dash.status !== 200)
    throw new Error(`sign-up of ${email}: /dashboard answered ${dash.status} (onboarding incomplete?)`);
  return client;
}

const PLACES = [
  "HSR Layout",
  "Koramangala",
  "Indiranagar",
  "Manyata Tech Park",
  "RMZ Ecospace",
  "Whitefield ITPL",
  "Electronic City Phase 1",
  "MG Road",
  "Hebbal",
  "Jayanagar",
];

function istDatePlus(days) {
  const d = new Date(Date.now() + 5.5 * 3_600_000 + days * 86_400_000);
  return d.toISOString().slice(0, 10);
}

const idsIn = (html, re) => [...new Set([...html.matchAll(re)].map((m) => m[1]))];

/**
 * Runs the mixed load. `users`: [{ client: Client, id: string, driver: boolean }], one
 * worker per user (concurrency = users.length). Drivers first offer a ride each through
 * /rides/create; then, until the deadline, every worker loops over weighted actions.
 * Returns { requests, errors, byAction, statuses, errorSamples, rides }.
 */
export async function mixedLoad({ users, durationMs = 60_000, log = () => {} }) {
  const stats = { requests: 0, errors: 0, byAction: {}, statuses: {}, errorSamples: [] };
  const pool = []; // { rideId, driverIndex }
  const contacts = users.map(() => new Set()); // user ids each worker may message

  const record = (action, status, detail) => {
    stats.requests++;
    const a = (stats.byAction[action] ??= { n: 0, statuses: {} });
    a.n++;
    a.statuses[status] = (a.statuses[status] ?? 0) + 1;
    stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
    if (status === "network" || Number(status) >= 500) {
      stats.errors++;
      if (stats.errorSamples.length < 10)
        stats.errorSamples.push({ action, status, detail: String(detail ?? "").slice(0, 300) });
    }
  };
  const call = async (action, fn) => {
    try {
      const res = await fn();
      record(action, res.status, res.status >= 500 ? res.text : undefined);
      return res;
    } catch (e) {
      record(action, "network", describe(e));
      return null;
    }
  };

  const createdIds = async (w) => {
    const list = await call("browse", () => users[w].client.get("/dashboard/rides?tab=created"));
    return new Set(idsIn(list?.text ?? "", /href="\/rides\/([a-z0-9]{8,64})"/g));
  };

  async function offerRide(w) {
    const u = users[w];
    // Only the ride offered now joins the pool (a seeded driver already has many, most of them past).
    const before = await createdIds(w);
    const from = PLACES[(w + pool.length) % PLACES.length];
    const to = PLACES[(w + pool.length + 3) % PLACES.length];
    const res = await call("create-ride", () =>
      u.client.post("/rides/create", {
        intent: "create",
        fromLocation: from,
        toLocation: to,
        date: istDatePlus(1 + (w % 10)),
        time: "08:30",
        seats: 4,
        tripCost: "400",
        notes: "Mixed-load ride",
      }),
    );
    if (res?.status !== 302) return;
    for (const rideId of await createdIds(w)) {
      if (!before.has(rideId) && !pool.some((p) => p.rideId === rideId)) pool.push({ rideId, driver: w });
    }
  }

  async function requestSeat(w) {
    const mine = pool.filter((p) => p.driver !== w);
    if (mine.length === 0) return browse(w);
    const p = mine[Math.floor(Math.random() * mine.length)];
    const res = await call("request-seat", () =>
      users[w].client.post(`/rides/${p.rideId}/book`, { seats: 1, notes: "On my way to work" }),
    );
    if (res?.status === 302 && res.location?.startsWith("/booking-confirmation")) {
      contacts[w].add(users[p.driver].id);
      contacts[p.driver].add(users[w].id);
    }
  }

  async function accept(w) {
    const page = await call("browse", () => users[w].client.get("/dashboard/rides?tab=manage&status=pending"));
    const ids = idsIn(page?.text ?? "", /name="requestId" value="([a-z0-9]{1,64})"/g);
    if (ids.length === 0) return;
    const requestId = ids[Math.floor(Math.random() * ids.length)];
    await call("accept", () =>
      users[w].client.post("/dashboard/rides?tab=manage", {
        intent: Math.random() < 0.8 ? "accept" : "reject",
        requestId,
        redirectTo: "/dashboard/rides?tab=manage",
      }),
    );
  }

  async function message(w) {
    const to = [...contacts[w]];
    if (to.length === 0) return browse(w);
    const receiver = to[Math.floor(Math.random() * to.length)];
    if (!ID.test(receiver)) return;
    await call("message", () =>
      users[w].client.post("/dashboard/messages", {
        intent: "send",
        to: receiver,
        content: `Load test hello ${randomUUID().slice(0, 8)}`,
        clientId: randomUUID(),
      }),
    );
  }

  async function browse(w) {
    const ride = pool.length ? pool[Math.floor(Math.random() * pool.length)].rideId : null;
    const pages = [
      "/rides",
      "/rides?page=2",
      "/rides?q=Koramangala",
      "/dashboard",
      "/dashboard/rides",
      "/dashboard/rides?tab=booked",
      "/dashboard/messages",
      "/communities",
      ride ? `/rides/${ride}` : "/rides",
    ];
    const path = pages[Math.floor(Math.random() * pages.length)];
    await call("browse", () => users[w].client.get(path));
  }

  // Setup: every driver offers one ride, so seat requests have somewhere to go.
  await Promise.all(users.map((u, w) => (u.driver ? offerRide(w) : null)));
  log(`mixed load: ${users.length} users, ${pool.length} rides offered, running ${durationMs / 1000} s`);

  const deadline = Date.now() + durationMs;
  const startedAt = Date.now();
  await Promise.all(
    users.map(async (u, w) => {
      while (Date.now() < deadline) {
        const x = Math.random();
        if (x < 0.5) await browse(w);
        else if (x < 0.7) await requestSeat(w);
        else if (x < 0.85) await (u.driver ? accept(w) : requestSeat(w));
        else if (x < 0.97) await message(w);
        else await (u.driver ? offerRide(w) : browse(w));
      }
    }),
  );
  const seconds = (Date.now() - startedAt) / 1000;
  const retriedGets = users.reduce((n, u) => n + (u.client.retried ?? 0), 0);
  return {
    ...stats,
    retriedGets,
    seconds,
    requestsPerSecond: Math.round(stats.requests / seconds),
    rides: pool.map((p) => p.rideId),
  };
}
