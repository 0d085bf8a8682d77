import type { AppEnv } from "./env.server";
import { appCookie } from "./cookies.server";

/**
 * Read replicas (ADR 0026). Every request talks to D1 through one Sessions API session:
 * - GET/HEAD without a bookmark: `first-unconstrained`, so its reads may come from the
 *   nearest replica;
 * - GET/HEAD with this browser's bookmark: the session starts there, so it reads at least
 *   everything this browser wrote (read-your-writes across the redirect after a form);
 * - every other method, and a GET whose bookmark cookie cannot be read: `first-primary`.
 * A request that wrote answers with the session's latest bookmark in `lr_d1`.
 */
export const BOOKMARK_COOKIE = "lr_d1";

// A bookmark only has to outlive the replica lag (normally well under a second); an hour
// is generous and stays far inside D1's Time Travel window, where bookmarks are valid.
const BOOKMARK_MAX_AGE = 60 * 60;

// D1's bookmark shape (as returned by getBookmark(), locally and in production). Checked
// on top of the signature so only a value D1 itself produced is ever handed back to it.
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

// Anything that is not a plain SELECT/WITH ... SELECT may write; a false "wrote" only costs a cookie.
const mayWrite = (sql: string) => !/^\s*(select|with)\b/i.test(sql) || /\b(insert|update|delete|replace)\b/i.test(sql);

const bookmarkCookie = (request: Request, env: AppEnv) =>
  appCookie<string>(request, env, { name: BOOKMARK_COOKIE, maxAge: BOOKMARK_MAX_AGE });

export type D1RequestSession = {
  /** What the request's drizzle client talks to (drizzle only calls prepare and batch). */
  d1: D1DatabaseSession;
  /** The constraint or bookmark the session was opened with (for tests and debugging). */
  startedFrom: string;
  /** Adds the bookmark cookie to the response if the request wrote (or clears an unreadable one). */
  finish(response: Response): Promise<Response>;
};

export async function openD1Session(request: Request, env: AppEnv): Promise<D1RequestSession> {
  const reads = request.method === "GET" || request.method === "HEAD";
  const cookie = bookmarkCookie(request, env);
  let startedFrom = "first-primary";
  let unreadable = false;
  if (reads && !cookie.present(request)) startedFrom = "first-unconstrained";
  else if (reads) {
    const bookmark = await cookie.parse(request);
    // A forged, stale-format or garbage cookie: no 500, and no replica either; the primary
    // is always current. The response clears it.
    if (typeof bookmark === "string" && BOOKMARK.test(bookmark)) startedFrom = bookmark;
    else unreadable = true;
  }
  const session = env.DB.withSession(startedFrom);
  let wrote = false;
  const d1 = {
    prepare(sql: string) {
      if (!wrote && mayWrite(sql)) wrote = true;
      return session.prepare(sql);
    },
    batch: <T>(statements: D1PreparedStatement[]) => session.batch<T>(statements),
    getBookmark: () => session.getBookmark(),
  } as D1DatabaseSession;
  return {
    d1,
    startedFrom,
    async finish(response) {
      // A socket upgrade's response has no headers to add to.
      if (response.status === 101 || response.webSocket) return response;
      const bookmark = wrote ? session.getBookmark() : null;
      if (bookmark && BOOKMARK.test(bookmark)) response.headers.append("Set-Cookie", await cookie.serialize(bookmark));
      else if (unreadable) response.headers.append("Set-Cookie", await cookie.clear());
      return response;
    },
  };
}
