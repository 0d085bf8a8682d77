import { z } from "zod";
import { isCleanLine, isCleanText, LINE_INVALID, TEXT_INVALID } from "./text";
import { SUSPENSION_DAY_OPTIONS } from "../domain/moderation";
import { DOMAIN_INVALID, parseWorkDomain } from "../domain/work-email";

// Shared by the client (instant validation) and the server (the rule that counts).
export const COMMUNITY_TYPE_OPTIONS = [
  { value: "residential", label: "Residential" },
  { value: "workplace", label: "Workplace" },
  { value: "interest", label: "Interest" },
] as const;

// zod counts UTF-16 units, SQLite's length() (the community_name_len CHECK) counts characters:
// "\u{10000}!" is 3 units but 2 characters, so the minimum is checked on characters too.
const min = (n: number, message: string, max: number, lines = false) =>
  z
    .string({ required_error: message })
    .trim()
    .min(n, message)
    .max(max, `Must be at most ${max} characters`)
    // Only where zod's own minimum passed, so a short name shows the message once.
    .superRefine((v, ctx) => {
      if (v.length >= n && [...v].length < n) ctx.addIssue({ code: "custom", message });
    })
    .refine(lines ? isCleanText : isCleanLine, lines ? TEXT_INVALID : LINE_INVALID);

export const createCommunitySchema = z.object({
  name: min(3, "Name must be at least 3 characters", 80),
  type: z
    .enum(["residential", "workplace", "interest"], { message: "Please choose a community type" })
    .default("residential"),
  location: min(3, "Location must be at least 3 characters", 120),
  description: min(10, "Description must be at least 10 characters", 1000, true),
});

const id = z.string({ required_error: "Missing id" }).trim().min(1).max(64);

// Issue 16: the work e-mail domain an admin sets, and the member's address and code.
const workDomain = z
  .string({ required_error: DOMAIN_INVALID })
  .max(260, DOMAIN_INVALID)
  .transform((v, ctx) => {
    const r = parseWorkDomain(v);
    if ("error" in r) {
      ctx.addIssue({ code: "custom", message: r.error });
      return z.NEVER;
    }
    return r.domain;
  });
const workEmail = z
  .string({ required_error: "Enter your work e-mail address" })
  .trim()
  .toLowerCase()
  .max(254, "That e-mail address is too long")
  .email("Enter a valid e-mail address");
const workCode = z
  .string({ required_error: "Enter the 6-digit code from the e-mail" })
  .trim()
  .regex(/^\d{6}$/, "Enter the 6-digit code from the e-mail");

/** The list's buttons: join or leave one community. */
export const membershipActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("join"), communityId: id }),
  z.object({ intent: z.literal("leave"), communityId: id }),
]);

/**
 * The community rules form (issue 16, item 2). Pickup points: one place of the place list
 * per line (the server resolves the names; the browser only counts them).
 */
export const communityPolicySchema = z.object({
  intent: z.literal("set-policy"),
  pricingMode: z.enum(["free", "equal", "per_seat"], { message: "Please choose how rides are priced" }),
  womenOnly: z.literal("on").optional().transform(Boolean),
  pickupPoints: z
    .string()
    .max(2000, "Too many pickup points: at most 10, one per line")
    .optional()
    .transform((v) => [
      ...new Set(
        (v ?? "")
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean),
      ),
    ])
    .refine((v) => v.length <= 10, "At most 10 pickup points, one per line")
    .refine(
      (v) => v.every((l) => l.length <= 100 && isCleanLine(l)),
      "Each pickup point is a place name, like Koramangala",
    ),
});

/** The detail page's buttons: the viewer's own membership, and moderation of requests and members. */
export const communityActionSchema = z.discriminatedUnion("intent", [
  // Issue 16: an invite link's token, when the community joins by invitation.
  z.object({ intent: z.literal("join"), invite: z.string().trim().max(64).optional() }),
  z.object({ intent: z.literal("leave") }),
  z.object({ intent: z.literal("approve"), memberId: id }),
  z.object({ intent: z.literal("reject"), memberId: id }),
  z.object({ intent: z.literal("clear"), memberId: id }),
  z.object({ intent: z.literal("promote"), memberId: id, role: z.enum(["moderator", "admin"]).default("moderator") }),
  // Issue 16: moderation of members (app/models/community-moderation.server.ts).
  z.object({ intent: z.literal("remove"), memberId: id }),
  z.object({
    intent: z.literal("suspend"),
    memberId: id,
    days: z.coerce
      .number({ required_error: "Choose a suspension period", invalid_type_error: "Choose a suspension period" })
      .int("Choose a suspension period")
      .refine((d) => (SUSPENSION_DAY_OPTIONS as readonly number[]).includes(d), "Choose a suspension period"),
  }),
  z.object({ intent: z.literal("unsuspend"), memberId: id }),
  z.object({ intent: z.literal("handover"), memberId: id }),
  // Issue 16: community rules (admins; app/models/community-rules.server.ts).
  z.object({
    intent: z.literal("set-join-mode"),
    mode: z.enum(["open", "moderated", "invite"], { message: "Please choose how people join" }),
  }),
  z.object({ intent: z.literal("invite-reset") }),
  z.object({ intent: z.literal("invite-revoke") }),
  // Issue 16: join by a verified work e-mail (app/models/work-email.server.ts).
  z.object({ intent: z.literal("set-email-domain"), domain: workDomain }),
  z.object({ intent: z.literal("work-email-code"), email: workEmail }),
  z.object({ intent: z.literal("work-email-verify"), code: workCode }),
  // Issue 16: pricing, women-only and pickup points (admins; app/models/community-policy.server.ts).
  communityPolicySchema,
]);

export const communityListQuerySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  type: z.enum(["residential", "workplace", "interest"]).nullable().catch(null),
  page: z.coerce.number().int().min(1).max(1000).catch(1),
});
