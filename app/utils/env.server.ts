import { z } from "zod";

// The one checked environment (issue 39). server.ts parses the Worker's bindings and
// variables once per env object (checkedEnv) and hands the result to every module as
// `context.env`, so a module meets only values that passed the check.
//
// Production is the absence of a stage marker: `npm start`, the browser journeys, the bench
// and the tests set LOOPRIDE_STAGE, and a deploy (wrangler.toml [vars]) never does, so a
// forgotten secret fails the first request instead of the first sign-in.

const binding = <T>(what: string) =>
  z.custom<T>((v) => typeof v === "object" && v !== null, { message: `must be bound (${what} in wrangler.toml)` });
const flag = z.enum(["0", "1"]).optional();
const text = z.string().min(1).optional();

const fields = z.object({
  DB: binding<D1Database>("[[d1_databases]]"),
  AVATARS: binding<R2Bucket>("[[r2_buckets]]"),
  USER_HUB: binding<Env["USER_HUB"]>("[[durable_objects.bindings]]"),
  CONVERSATION_ROOM: binding<Env["CONVERSATION_ROOM"]>("[[durable_objects.bindings]]"),
  LOOPRIDE_STAGE: z.enum(["development", "test"]).optional(),
  SESSION_SECRET: text,
  PASSWORD_PEPPER: text,
  GOOGLE_CLIENT_ID: text,
  GOOGLE_CLIENT_SECRET: text,
  // A typo here used to fall back to 10 in silence; now it stops the worker.
  AUTH_RATE_LIMIT_PER_MINUTE: z
    .string()
    .regex(/^[1-9]\d*$/, "must be a whole number above 0")
    .optional(),
  VAPID_PUBLIC_KEY: text,
  VAPID_PRIVATE_KEY: text,
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:)/, "must start with mailto: or https:")
    .optional(),
  PUSH_ALLOWED_HOSTS: z.string().optional(),
  DEBUG_TIMING: z.enum(["0", "1", "statements"]).optional(),
  MAIL_TRANSPORT: z.enum(["sink", "resend"]).optional(),
  DEV_MAILBOX: flag,
  APP_ORIGIN: z.string().url().optional(),
  RESEND_API_KEY: text,
  MAIL_FROM: text,
  // Issue 37: LoopRide's operators, who read the reports no community admin can (a secret:
  // `wrangler secret put OPERATOR_EMAILS`), as e-mail addresses separated by commas.
  OPERATOR_EMAILS: z
    .string()
    .refine(
      (v) => v.split(",").every((e) => /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/.test(e.trim())),
      "must be e-mail addresses separated by commas",
    )
    .optional(),
});

const schema = fields
  // Test-only bindings (TEST_MIGRATIONS) pass through untouched.
  .passthrough()
  .superRefine((env, ctx) => {
    const missing = (name: keyof typeof env, why: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [name], message: `is required ${why}` });
    const together = (names: (keyof typeof env)[]) => {
      const set = names.filter((n) => env[n] !== undefined);
      if (set.length > 0 && set.length < names.length) {
        for (const n of names) if (env[n] === undefined) missing(n, `with ${set.join(", ")}`);
      }
    };
    together(["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"]);
    together(["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT"]);
    if (env.LOOPRIDE_STAGE) return;
    const production = "in production (`wrangler secret put` or wrangler.toml [vars])";
    // OPERATOR_EMAILS too (issue 37): reporters are told LoopRide's operators read a report.
    for (const name of ["SESSION_SECRET", "PASSWORD_PEPPER", "APP_ORIGIN", "OPERATOR_EMAILS"] as const) {
      if (env[name] === undefined) missing(name, production);
    }
    if (env.DEV_MAILBOX === "1") {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["DEV_MAILBOX"], message: "must not be on in production" });
    }
    if (env.MAIL_TRANSPORT !== "sink") {
      for (const name of ["RESEND_API_KEY", "MAIL_FROM"] as const) {
        if (env[name] === undefined) missing(name, "to send e-mail through Resend");
      }
    }
  });

/**
 * The variables wrangler.toml does not declare (secrets, local and test switches), as the
 * runtime hands them over: strings, any of them possibly absent.
 */
export type EnvVars = Partial<Record<Exclude<VarName, keyof Env>, string>>;
type VarName = Exclude<keyof z.infer<typeof fields>, "DB" | "AVATARS" | "USER_HUB" | "CONVERSATION_ROOM">;

/**
 * The checked environment every module reads (`context.env`). Its values stay the strings
 * the runtime gave (the check refuses bad ones), so the raw env of a script or a test still
 * fits where a module asks for one.
 */
export type AppEnv = Env & EnvVars;

/** What signs cookies, tokens and keyed hashes. */
export type SecretEnv = Pick<AppEnv, "SESSION_SECRET">;

/** Sign-in, sign-up and newsletter attempts per client address per minute (checked above). */
export const authRateLimit = (env: Pick<AppEnv, "AUTH_RATE_LIMIT_PER_MINUTE">) =>
  Number(env.AUTH_RATE_LIMIT_PER_MINUTE ?? 10);

/** Names only: a message about the environment must never carry a value (it may be a secret). */
export class EnvError extends Error {
  constructor(
    readonly names: string[],
    detail: string,
  ) {
    super(`LoopRide is misconfigured: ${detail}`);
    this.name = "EnvError";
  }
}

// zod's own messages may quote the value it refused, which can be a secret.
function describe(issue: z.ZodIssue): string {
  if (issue.code === z.ZodIssueCode.invalid_enum_value) return `must be one of ${issue.options.join(", ")}`;
  if (issue.code === z.ZodIssueCode.invalid_type)
    return issue.received === "undefined" ? "is required" : `must be a ${issue.expected}`;
  if (issue.code === z.ZodIssueCode.too_small) return "must not be empty";
  if (issue.code === z.ZodIssueCode.invalid_string && issue.validation === "url")
    return "must be a URL such as https://loopride.in";
  return issue.message;
}

const parsed = new WeakMap<object, AppEnv | EnvError>();

/**
 * The worker's env, checked. The result (or the error) is kept per env object: workerd hands
 * each isolate the same object, so only its first request pays for the check.
 */
export function checkedEnv(raw: Env): AppEnv {
  let result = parsed.get(raw);
  if (!result) {
    const r = schema.safeParse(raw);
    result = r.success
      ? (r.data as unknown as AppEnv)
      : new EnvError(
          r.error.issues.map((i) => String(i.path[0])),
          r.error.issues.map((i) => `${String(i.path[0])} ${describe(i)}`).join("; "),
        );
    parsed.set(raw, result);
  }
  if (result instanceof EnvError) throw result;
  return result;
}

/**
 * A secret at its use. Production refused to start without it (checkedEnv); a local run
 * without one still learns which is missing and where to set it.
 */
export function requireSecret(
  env: Pick<AppEnv, "SESSION_SECRET" | "PASSWORD_PEPPER">,
  name: "SESSION_SECRET" | "PASSWORD_PEPPER",
): string {
  const value = env[name];
  if (!value)
    throw new Error(`${name} is not configured: set it in .dev.vars locally or with \`wrangler secret put ${name}\`.`);
  return value;
}

export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}
