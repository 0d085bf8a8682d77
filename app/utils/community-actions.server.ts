import { data, type AppLoadContext } from "@remix-run/cloudflare";
import type { z } from "zod";
import { clearRejection, decideJoinRequest, leaveCommunity, promoteMember, requestToJoin } from "../models/communities.server";
import { communityActionSchema } from "../schemas/communities";
import { getUser, requireUser } from "./auth.server";
import { NOT_FOUND, orToast, parseIntent } from "./errors.server";
import { moderateMemberIntent, workEmailIntent } from "./community-moderation.server";
import { setPolicyIntent } from "./community-policy-actions.server";
import { publishChange } from "./fanout.server";
import { redirectWithToast, type Toast } from "./toast.server";

type Ctx = Pick<AppLoadContext, "db" | "env" | "ctx">;
type Moderation = Exclude<z.infer<typeof communityActionSchema>, { intent: "join" | "leave" | "work-email-code" | "work-email-verify" | "set-policy" }>;

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

/**
 * The community page's form posts: the viewer's own join / leave, and moderation. Each answers
 * with a redirect and a toast; a refused rule is an error toast, a missing community the page's
 * own 404, a non-moderator 403 (the model decides).
 */
export async function handleCommunityIntent(request: Request, context: Ctx, communityId: string, formData: FormData, tab: string) {
  // The id comes from the URL, decoded: encode it again for the Location header (a NUL or
  // newline in it made the redirect itself throw, a 500).
  const here = `/communities/${encodeURIComponent(communityId)}`;
  const { intent, submission } = parseIntent(formData, communityActionSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const value = submission.value;
  const visitor = !(await getUser(request, context));
  // Visitors: joining asks them to sign in; moderation is refused by the model (403).
  const own = value.intent === "join" || value.intent === "leave" || value.intent === "work-email-code" || value.intent === "work-email-verify";
  if (visitor && own) {
    return redirectWithToast(request, context.env, `/login?redirectTo=${encodeURIComponent(here)}`, {
      title: "Authentication Required",
      description: "Please sign in to join communities.",
      type: "info",
    });
  }
  const userId = visitor ? null : (await requireUser(request, context)).id;
  const to =
    own
      ? here
      : tab === "moderation" || value.intent !== "promote"
        ? `${here}?tab=moderation`
        : `${here}?tab=members`;
  // Issue 16: the community rules form shows its errors by its fields (conform).
  if (value.intent === "set-policy") return setPolicyIntent(request, context, userId, communityId, submission, value, to);
  const options = { to, notFound: NOT_FOUND.community, unexpected: { title: "Error", description: FAILED[intent] } };
  return orToast(request, context.env, options, async () => {
    if (value.intent === "join") {
      const c = await requestToJoin(context, userId!, communityId, undefined, { invite: value.invite });
      return redirectWithToast(
        request,
        context.env,
        to,
        c.joined
          ? { title: "Welcome!", description: `You joined ${c.name}.` }
          : { title: "Request Sent", description: `Your request to join ${c.name} has been sent. Community moderators will review your request.` },
      );
    }
    if (value.intent === "work-email-code" || value.intent === "work-email-verify") {
      return redirectWithToast(request, context.env, to, await workEmailIntent(context, userId!, communityId, value));
    }
    if (value.intent === "leave") {
      const c = await leaveCommunity(context, userId!, communityId);
      return redirectWithToast(request, context.env, to, { title: "Left Community", description: `You have left ${c.name}` });
    }
    return redirectWithToast(request, context.env, to, await moderate(context, userId, communityId, value));
  });
}

async function moderate(context: Ctx, userId: string | null, communityId: string, value: Moderation): Promise<Toast> {
  switch (value.intent) {
    case "approve": {
      const decided = await decideJoinRequest(context, userId, communityId, value.memberId, "approved");
      publishChange(context, decided.audience);
      return { title: "Request Approved" };
    }
    case "reject": {
      const decided = await decideJoinRequest(context, userId, communityId, value.memberId, "rejected");
      publishChange(context, decided.audience);
      return { title: "Request Rejected" };
    }
    case "clear":
      await clearRejection(context, userId, communityId, value.memberId);
      return { title: "Rejection Cleared", description: "The user may ask to join again." };
    case "promote":
      await promoteMember(context, userId, communityId, value.memberId, value.role);
      return { title: value.role === "admin" ? "Admin Added" : "Moderator Added" };
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
