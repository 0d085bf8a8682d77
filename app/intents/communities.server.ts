import type { z } from "zod";
import type { Audience } from "~/models/context.server";
import {
  clearRejection,
  decideJoinRequest,
  leaveCommunity,
  promoteMember,
  requestToJoin,
} from "~/models/communities.server";
import { setCommunityPolicy } from "~/models/community-policy.server";
import { communityActionSchema } from "~/schemas/communities";
import { getUser, requireUser } from "~/utils/auth.server";
import { NOT_FOUND } from "~/utils/errors.server";
import { moderateMemberIntent, workEmailIntent } from "./community-moderation.server";
import type { Toast } from "~/utils/toast.server";
import { runIntent, type Ctx, type Done } from "./run.server";

type Value = z.infer<typeof communityActionSchema>;
type Moderation = Exclude<Value, { intent: "join" | "leave" | "work-email-code" | "work-email-verify" | "set-policy" }>;
// The spec's toasts for a failure that is not a refusal (logged).
const FAILED: Record<z.infer<typeof communityActionSchema>["intent"], string> = {
  join: "Failed to join/leave community. Please try again.",
  leave: "Failed to join/leave community. Please try again.",
  approve: "Failed to approve request. Please try again.",
  reject: "Failed to reject request. Please try again.",
  clear: "Failed to clear the rejection. Please try again.",
  promote: "Failed to promote member. Please try again.",
  remove: "Failed to remove the member. Please try again.",
  suspend: "Failed to suspend the member. Please try again.",
  unsuspend: "Failed to lift the suspension. Please try again.",
  handover: "Failed to hand over admin. Please try again.",
  "set-join-mode": "Failed to change the join rule. Please try again.",
  "invite-reset": "Failed to make a new invitation link. Please try again.",
  "invite-revoke": "Failed to revoke the invitation link. Please try again.",
  "set-email-domain": "Failed to change the join rule. Please try again.",
  "work-email-code": "Failed to send the code. Please try again.",
  "work-email-verify": "Failed to check the code. Please try again.",
  "set-policy": "Failed to save the community rules. Please try again.",
};

/** The viewer's own intents (a visitor is asked to sign in); the rest are moderation. */
const OWN = new Set<Value["intent"]>(["join", "leave", "work-email-code", "work-email-verify"]);

/**
 * The community page's form posts: the viewer's own join / leave, and moderation. Each answers
 * with a redirect and a toast; a refused rule is an error toast, a missing community the page's
 * own 404, a non-moderator 403 (the model decides). The community rules form (issue 16) shows
 * its errors by its fields (conform).
 */
export async function handleCommunityIntent(
  request: Request,
  context: Ctx,
  communityId: string,
  formData: FormData,
  tab: string,
) {
  // The id comes from the URL, decoded: encode it again for the Location header (a NUL or
  // newline in it made the redirect itself throw, a 500).
  const here = `/communities/${encodeURIComponent(communityId)}`;
  const visitor = !(await getUser(request, context));
  const own = (v: Value) => OWN.has(v.intent);
  const to = (v: Value) =>
    own(v) ? here : tab === "moderation" || v.intent !== "promote" ? `${here}?tab=moderation` : `${here}?tab=members`;
  return runIntent(request, context, formData, {
    schema: communityActionSchema,
    invalid: "reply",
    page: (value) =>
      value.intent === "set-policy"
        ? { kind: "form", unexpected: FAILED["set-policy"] }
        : {
            kind: "toast",
            to: to(value),
            notFound: NOT_FOUND.community,
            unexpected: { title: "Error", description: FAILED[value.intent] },
          },
    handle: async (value): Promise<Done> => {
      // Visitors: joining asks them to sign in; moderation is refused by the model (403).
      if (visitor && own(value)) {
        const toast = {
          title: "Authentication Required",
          description: "Please sign in to join communities.",
          type: "info" as const,
        };
        return { to: `/login?redirectTo=${encodeURIComponent(here)}`, toast };
      }
      const userId = visitor ? null : (await requireUser(request, context)).id;
      const done = (toast: Toast, audience?: Audience) => ({ to: to(value), toast, audience });
      switch (value.intent) {
        case "set-policy": {
          await setCommunityPolicy(context, userId, communityId, value);
          return done({
            title: "Community Rules Updated",
            description: "New rides follow them; rides already offered keep theirs.",
          });
        }
        case "join": {
          const c = await requestToJoin(context, userId!, communityId, undefined, { invite: value.invite });
          return done(
            c.joined
              ? { title: "Welcome!", description: `You joined ${c.name}.` }
              : {
                  title: "Request Sent",
                  description: `Your request to join ${c.name} has been sent. Community moderators will review your request.`,
                },
          );
        }
        case "work-email-code":
        case "work-email-verify":
          return done(await workEmailIntent(context, userId!, communityId, value));
        case "leave": {
          const c = await leaveCommunity(context, userId!, communityId);
          return done({ title: "Left Community", description: `You have left ${c.name}` });
        }
        default: {
          const r = await moderate(context, userId, communityId, value);
          return done(r.toast, r.audience);
        }
      }
    },
  });
}

async function moderate(
  context: Ctx,
  userId: string | null,
  communityId: string,
  value: Moderation,
): Promise<{ toast: Toast; audience?: Audience }> {
  switch (value.intent) {
    case "approve":
    case "reject": {
      const approved = value.intent === "approve";
      const decided = await decideJoinRequest(
        context,
        userId,
        communityId,
        value.memberId,
        approved ? "approved" : "rejected",
      );
      return { toast: { title: approved ? "Request Approved" : "Request Rejected" }, audience: decided.audience };
    }
    case "clear":
      await clearRejection(context, userId, communityId, value.memberId);
      return { toast: { title: "Rejection Cleared", description: "The user may ask to join again." } };
    case "promote":
      await promoteMember(context, userId, communityId, value.memberId, value.role);
      return { toast: { title: value.role === "admin" ? "Admin Added" : "Moderator Added" } };
    // Issue 16: removal, suspension, handing over admin, join rules and invitation links.
    case "remove":
    case "suspend":
    case "unsuspend":
    case "handover":
    case "set-join-mode":
    case "invite-reset":
    case "invite-revoke":
    case "set-email-domain":
      return moderateMemberIntent(context, userId, communityId, value);
  }
}
