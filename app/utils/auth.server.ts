import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import {
  createSession,
  deleteSession,
  getSessionWith,
  SESSION_TTL_MS,
  type SessionUser,
  type Viewer,
} from "../models/sessions.server";
import { type Read, type ReadResults, runReads } from "../models/statements.server";
import { getBadges, type Badges } from "../models/badges.server";
import { appCookie } from "./cookies.server";
import { isSecureRequest, type AppEnv } from "./env.server";

type Ctx = Pick<AppLoadContext, "db" | "env">;

function sessionCookie(request: Request, env: AppEnv) {
  return appCookie<string>(request, env, {
    name: isSecureRequest(request) ? "__Host-lr_session" : "lr_session",
    maxAge: SESSION_TTL_MS / 1000,
  });
}

/** The session id from the signed cookie; null when absent or unreadable (never throws). */
export async function readSessionId(request: Request, env: AppEnv): Promise<string | null> {
  const value = await sessionCookie(request, env).parse(request);
  return typeof value === "string" && value.length > 0 ? value : null;
}

type Looked = { user: SessionUser | null; badges: Badges | null; page: unknown[][] };
/** The session read of one request, and the page reads that asked to come with it. */
type Lookup = { result: Promise<Looked>; reads: ((viewer: Viewer) => readonly Read[])[]; started: boolean };

// Keyed by the load context: Remix hands each loader its own Request object, but one
// context object per incoming request (server.ts), so the session is read once.
const cache = new WeakMap<object, Lookup>();

function lookUp(request: Request, context: Ctx): Lookup {
  let lookup = cache.get(context);
  if (!lookup) {
    // A page (GET) also shows the shell's badges: they come in the session's round trip.
    const page = request.method === "GET" || request.method === "HEAD";
    const entry: Lookup = {
      reads: [],
      started: false,
      result: Promise.resolve({ user: null, badges: null, page: [] }),
    };
    // Reading the cookie is asynchronous, so every loader of the page has started (Remix
    // calls them all before awaiting any) and asked for its reads before the batch is made.
    entry.result = readSessionId(request, context.env).then(async (id): Promise<Looked> => {
      entry.started = true;
      if (!id) return { user: null, badges: null, page: [] };
      const now = Date.now();
      const sets = entry.reads.map((reads) => reads({ sessionId: id, now }));
      const found = await getSessionWith(context, id, now, { badges: page, reads: sets.flat() });
      let at = 0;
      return { ...found, page: sets.map((set) => found.page.slice(at, (at += set.length))) };
    });
    lookup = entry;
    cache.set(context, lookup);
  }
  return lookup;
}

/** The signed-in user, or null. Looked up once per request. */
export async function getUser(request: Request, context: Ctx): Promise<SessionUser | null> {
  return (await lookUp(request, context).result).user;
}

/** The signed-in user's badge counts for the app shell: read with the session on a page request. */
export async function getShellBadges(request: Request, context: Ctx, user: SessionUser): Promise<Badges> {
  return (await lookUp(request, context).result).badges ?? getBadges(context, user.id);
}

/** A user must finish onboarding (phone and vehicle answer) before using the app. */
export function needsOnboarding(user: SessionUser): boolean {
  return !user.phoneNumber?.trim() || !user.hasVehicleInfo;
}

const REDIRECT_BASE = "http://loopride.invalid";

/** Starts like a path but a browser would read it as another host ("//host", "/\\host"). */
const looksOffSite = (path: string) => !path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\");

/**
 * Only same-site paths are honoured as a destination after sign-in. The path is parsed as
 * a browser would parse the Location header (which drops tabs and newlines, so "/\t/evil"
 * means "//evil") and returned re-serialised, percent-encoded: a control character in a
 * header value would otherwise make the redirect itself throw.
 *
 * The check applies to the result, not only to the input: parsing resolves dot segments,
 * so "/..//evil.example", "/x/..//evil.example" and "/%2e%2e//evil.example" all come out
 * as "//evil.example", which a browser follows off-site. The result is parsed once more to
 * prove it stays on our origin and is stable.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || looksOffSite(to)) return fallback;
  let result: string;
  try {
    const url = new URL(to, REDIRECT_BASE);
    if (url.origin !== REDIRECT_BASE) return fallback;
    result = url.pathname + url.search + url.hash;
    if (looksOffSite(result)) return fallback;
    const again = new URL(result, REDIRECT_BASE);
    if (again.origin !== REDIRECT_BASE || again.pathname + again.search + again.hash !== result) return fallback;
  } catch {
    return fallback;
  }
  return result;
}

export function loginPath(request: Request): string {
  const url = new URL(request.url);
  const here = url.pathname + url.search;
  return `/login?redirectTo=${encodeURIComponent(here)}`;
}

/** The one guard: signed in, and onboarded unless the route says otherwise. */
export async function requireUser(
  request: Request,
  context: Ctx,
  { allowIncomplete = false }: { allowIncomplete?: boolean } = {},
): Promise<SessionUser> {
  const user = await getUser(request, context);
  if (!user) {
    // A session cookie that leads nowhere (signed out elsewhere, expired, tampered or
    // unreadable) is cleared on the way to /login.
    const cookie = sessionCookie(request, context.env);
    throw redirect(
      loginPath(request),
      cookie.present(request) ? { headers: { "Set-Cookie": await cookie.clear() } } : undefined,
    );
  }
  if (!allowIncomplete && needsOnboarding(user)) throw redirect("/onboarding");
  return user;
}

/**
 * requireUser, and the page's own reads in the session's round trip (ADR 0063): `reads` is
 * asked for them keyed on the session's owner, so call this before the loader's first await.
 * Asked too late (an action read the session first), they are read keyed on the user, after.
 * `then`: reads that need the user's own fields, in the next round trip (in the same one as
 * `reads` when those come late), so a page stays within two.
 */
export async function requireUserWith<R extends readonly Read[], T extends readonly Read[] = []>(
  request: Request,
  context: Ctx,
  reads: (viewer: Viewer) => R,
  options: { allowIncomplete?: boolean; then?: (user: SessionUser) => T } = {},
): Promise<{ user: SessionUser; page: ReadResults<R>; then: ReadResults<T> }> {
  const lookup = lookUp(request, context);
  const index = lookup.started ? -1 : lookup.reads.push(reads) - 1;
  const user = await requireUser(request, context, options);
  const found = index < 0 ? undefined : (await lookup.result).page[index];
  const next = options.then?.(user) ?? [];
  if (found) {
    return {
      user,
      page: found as ReadResults<R>,
      then: (next.length ? await runReads(context.db, next) : []) as ReadResults<T>,
    };
  }
  const own = reads({ userId: user.id });
  const rows = await runReads(context.db, [...own, ...next]);
  return { user, page: rows.slice(0, own.length) as ReadResults<R>, then: rows.slice(own.length) as ReadResults<T> };
}

/** Signs a user in: always a new session id (the previous one, if any, is deleted). */
export async function startUserSession(
  request: Request,
  context: Ctx,
  userId: string,
): Promise<{ cookie: string; sessionId: string }> {
  const previous = await readSessionId(request, context.env);
  if (previous) await deleteSession(context, previous);
  const sessionId = await createSession(context, userId);
  return { cookie: await sessionCookie(request, context.env).serialize(sessionId), sessionId };
}

/** Signs out: the row is deleted server-side, the cookie cleared. */
export async function endUserSession(request: Request, context: Ctx): Promise<string> {
  const id = await readSessionId(request, context.env);
  if (id) await deleteSession(context, id);
  return sessionCookie(request, context.env).clear();
}

/** The Set-Cookie value for a session id (tests sign users in with it). */
export function serializeSessionCookie(request: Request, env: AppEnv, sessionId: string): Promise<string> {
  return sessionCookie(request, env).serialize(sessionId);
}
