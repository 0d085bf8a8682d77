import type { z } from "zod";
import { formatDateTimeShort } from "~/domain/time";
import { handOverAdmin, liftSuspension, removeMember, suspendMember } from "~/models/community-moderation.server";
import { resetInvite, setEmailDomain, setJoinMode } from "~/models/community-rules.server";
import { requestWorkEmailCode, verifyWorkEmailCode } from "~/models/work-email.server";
import type { Audience } from "~/models/context.server";
import type { communityActionSchema } from "~/schemas/communities";
import { kickOutbox } from "~/models/outbox/deliver.server";
import type { Toast } from "~/utils/toast.server";
import type { Ctx } from "./run.server";

type MemberIntent = Extract<
  z.infer<typeof communityActionSchema>,
  {
    intent:
      | "remove"
      | "suspend"
      | "unsuspend"
      | "handover"
      | "set-join-mode"
      | "invite-reset"
      | "invite-revoke"
      | "set-email-domain";
  }
>;
type WorkEmailIntent = Extract<
  z.infer<typeof communityActionSchema>,
  { intent: "work-email-code" | "work-email-verify" }
>;

const JOIN_RULE_TEXT = {
  open: "Anyone can join at once.",
  moderated: "Moderators approve each request.",
  invite: "People join with the invitation link.",
};

/** The community page's member-moderation intents (issue 16): model call, toast, whom to tell. */
export async function moderateMemberIntent(
  context: Ctx,
  userId: string | null,
  communityId: string,
  value: MemberIntent,
): Promise<{ toast: Toast; audience?: Audience }> {
  switch (value.intent) {
    case "remove": {
      const r = await removeMember(context, userId, communityId, value.memberId);
      const description = `${r.memberName} was removed; their bookings on this community's upcoming rides were cancelled.`;
      return { toast: { title: "Member Removed", description }, audience: r.audience };
    }
    case "suspend": {
      const r = await suspendMember(context, userId, communityId, value.memberId, value.days);
      const description = `Suspended until ${formatDateTimeShort(r.until)}.`;
      return { toast: { title: "Member Suspended", description }, audience: r.audience };
    }
    case "unsuspend": {
      const r = await liftSuspension(context, userId, communityId, value.memberId);
      return { toast: { title: "Suspension Lifted" }, audience: r.audience };
    }
    case "handover": {
      const r = await handOverAdmin(context, userId, communityId, value.memberId);
      return {
        toast: { title: "Admin Handed Over", description: "You are now a moderator of this community." },
        audience: r.audience,
      };
    }
    case "set-join-mode": {
      await setJoinMode(context, userId, communityId, value.mode);
      return { toast: { title: "Join Rule Updated", description: JOIN_RULE_TEXT[value.mode] } };
    }
    case "invite-reset":
    case "invite-revoke": {
      const revoke = value.intent === "invite-revoke";
      await resetInvite(context, userId, communityId, revoke);
      const title = revoke ? "Invitation Link Revoked" : "New Invitation Link";
      return { toast: { title, description: "The previous link no longer works." } };
    }
    case "set-email-domain": {
      const r = await setEmailDomain(context, userId, communityId, value.domain);
      return {
        toast: { title: "Join Rule Updated", description: `People join by verifying an address at @${r.domain}.` },
      };
    }
  }
}

/** Issue 16: the viewer asks for a work e-mail code (sent through the outbox) or enters it. */
export async function workEmailIntent(
  context: Ctx,
  userId: string,
  communityId: string,
  value: WorkEmailIntent,
): Promise<Toast> {
  if (value.intent === "work-email-code") {
    const r = await requestWorkEmailCode(context, userId, communityId, value.email);
    kickOutbox(context);
    return { title: "Code Sent", description: `We e-mailed a 6-digit code to ${r.email}. It works for 10 minutes.` };
  }
  const r = await verifyWorkEmailCode(context, userId, communityId, value.code);
  return { title: "Welcome!", description: `You verified your @${r.domain} address and joined ${r.name}.` };
}
