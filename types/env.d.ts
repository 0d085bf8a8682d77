export {};

// Bindings and secrets of the LoopRide worker (wrangler.toml, .dev.vars, `wrangler secret put`).
declare global {
  interface Env {
  DB: D1Database;
  /** Profile photos (wrangler.toml [[r2_buckets]]). */
  AVATARS: R2Bucket;
  ASSETS?: Fetcher;
  USER_HUB: DurableObjectNamespace<import("../durable-objects/user-hub").UserHub>;
  CONVERSATION_ROOM: DurableObjectNamespace<import("../durable-objects/conversation-room").ConversationRoom>;
  SESSION_SECRET?: string;
  PASSWORD_PEPPER?: string;
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  AUTH_RATE_LIMIT_PER_MINUTE?: string;
  /** Web Push VAPID key pair (base64url raw P-256 public point, JWK "d") and contact (mailto:/https:). */
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
  /** Extra push service hosts accepted for subscriptions, comma-separated (tests; a self-hosted push service). */
  PUSH_ALLOWED_HOSTS?: string;
  /** Set to "1" to emit Server-Timing with D1 query counts (never on by default). */
  DEBUG_TIMING?: string;
  /** Issue 15 e-mail: "sink" stores messages in D1 (local, tests); anything else sends through Resend. */
  MAIL_TRANSPORT?: string;
  /** "1" shows the development mailbox at /dev/mailbox (never in production). */
  DEV_MAILBOX?: string;
  /** The site's address for links in e-mails, e.g. https://loopride.in (never taken from a request). */
  APP_ORIGIN?: string;
  /** Resend API key (secret) and the From address, e.g. "LoopRide <rides@mail.loopride.in>". */
  RESEND_API_KEY?: string;
  MAIL_FROM?: string;
  }
}

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    env: Env;
    ctx: Pick<ExecutionContext, "waitUntil">;
    db: import("../app/models/db.server").Db;
    /** A random nonce for this response's Content-Security-Policy. */
    nonce: string;
  }
}
