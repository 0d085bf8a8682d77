import { env } from "./env";
import { vi } from "vitest";
import { createSession } from "~/models/sessions.server";
import { serializeSessionCookie } from "~/utils/auth.server";
import { createDb } from "~/models/db.server";
import { createUser, type UserOptions } from "../../db/factories";
import { workerFetch } from "./worker-fetch";

export const BASE = "http://localhost";
export const db = () => createDb(env.DB);

/** A user with a live session, and the Cookie header that carries it. */
export async function signedInUser(opts: UserOptions = {}) {
  const user = await createUser({ db: db() }, opts);
  const sessionId = await createSession({ db: db() }, user.id);
  const cookie = await serializeSessionCookie(new Request(BASE), env, sessionId);
  return { ...user, sessionId, cookie: cookie.split(";")[0] };
}

/** A same-origin form POST through the real worker, as a browser would send it. */
export function postForm(
  path: string,
  fields: Record<string, string | string[]>,
  init: { cookie?: string; headers?: Record<string, string> } = {},
) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
  // Straight to the worker's fetch handler, waiting for its waitUntil work (live fan-out
  // to Durable Objects) so nothing is still running when a test's storage is rolled back.
  return workerFetch(
    new Request(`${BASE}${path}`, {
      method: "POST",
      body,
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Host: new URL(BASE).host,
        Origin: BASE,
        "Sec-Fetch-Site": "same-origin",
        ...(init.cookie ? { Cookie: init.cookie } : {}),
        ...init.headers,
      },
    }),
  );
}

export function get(path: string, init: { cookie?: string; headers?: Record<string, string> } = {}) {
  return workerFetch(
    new Request(`${BASE}${path}`, {
      redirect: "manual",
      headers: { ...(init.cookie ? { Cookie: init.cookie } : {}), ...init.headers },
    }),
  );
}

type NotificationColumn = "type" | "title" | "message" | "data" | "read";
type NotificationRow<C extends NotificationColumn> = Pick<
  { type: string; title: string; message: string; data: Record<string, unknown>; read: number },
  C
>;

/** A user's notifications, oldest first: the chosen columns, `data` parsed from its JSON. */
export async function notificationsFor<C extends NotificationColumn = "type" | "title" | "data">(
  userId: string,
  columns: readonly C[] = ["type", "title", "data"] as unknown as C[],
): Promise<NotificationRow<C>[]> {
  const r = await env.DB.prepare(
    `SELECT ${columns.join(", ")} FROM notifications WHERE user_id = ? ORDER BY created_at`,
  )
    .bind(userId)
    .all<Record<string, unknown>>();
  return r.results.map((n) => ("data" in n ? { ...n, data: JSON.parse(n.data as string) } : n) as NotificationRow<C>);
}

/** Row counts of every table: a cheap checksum that "nothing changed". */
export async function tableCounts(): Promise<Record<string, number>> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' AND name <> 'rate_limits' ORDER BY name",
  ).all<{ name: string }>();
  const out: Record<string, number> = {};
  for (const { name } of tables.results) {
    const row = await env.DB.prepare(`SELECT count(*) AS n FROM "${name}"`).first<{ n: number }>();
    out[name] = row?.n ?? 0;
  }
  return out;
}

/** A browser-like client: keeps cookies, sends same-origin headers on POST, can follow redirects. */
export class Browser {
  cookies = new Map<string, string>();
  constructor(public headers: Record<string, string> = {}) {}

  get cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  absorb(res: Response) {
    for (const sc of res.headers.getSetCookie()) {
      const [pair, ...attrs] = sc.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1);
      const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=Thu, 01 Jan 1970/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async get(path: string) {
    return this.absorb(
      await workerFetch(
        new Request(path.startsWith("http") ? path : `${BASE}${path}`, {
          redirect: "manual",
          headers: { Cookie: this.cookieHeader, ...this.headers },
        }),
      ),
    );
  }

  async post(path: string, fields: Record<string, string | string[]>) {
    return this.absorb(await postForm(path, fields, { cookie: this.cookieHeader, headers: this.headers }));
  }

  /** Follows redirects (GET) until a page; returns the final response and its HTML. */
  async follow(res: Response, max = 5): Promise<{ res: Response; html: string; url: string }> {
    let url = "";
    while (res.status >= 300 && res.status < 400 && max-- > 0) {
      url = new URL(res.headers.get("Location")!, BASE).pathname + new URL(res.headers.get("Location")!, BASE).search;
      res = await this.get(url);
    }
    return { res, html: await res.text(), url };
  }
}

/**
 * Rate limits use fixed one-minute windows: a test that counts attempts must not straddle a
 * window boundary. When the current minute has too little room left, the clock the worker reads
 * (Date, in this same isolate) moves on to the next minute at once, as a wait would, and runs on
 * from there; the setup file puts the real clock back after each test. Nothing sleeps.
 */
export function awayFromMinuteBoundary(needSeconds = 15) {
  const intoMinute = (Date.now() % 60_000) / 1000;
  if (intoMinute <= 60 - needSeconds) return;
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000 + 500);
}
