import { env, SELF } from "cloudflare:test";
import { createSession } from "~/models/sessions.server";
import { serializeSessionCookie } from "~/utils/auth.server";
import { createDb } from "~/utils/db.server";
import { createUser, type UserOptions } from "../db/factories";

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
export function postForm(path: string, fields: Record<string, string | string[]>, init: { cookie?: string; headers?: Record<string, string> } = {}) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
  return SELF.fetch(`${BASE}${path}`, {
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
  });
}

export function get(path: string, init: { cookie?: string; headers?: Record<string, string> } = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    redirect: "manual",
    headers: { ...(init.cookie ? { Cookie: init.cookie } : {}), ...init.headers },
  });
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
