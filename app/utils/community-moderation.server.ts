import type { AppLoadContext } from "@remix-run/cloudflare";
import type { z } from "zod";
import { formatDateTimeShort } from "~/domain/time";
import { handOverAdmin, liftSuspension, removeMember, suspendMember } from "~/models/community-moderation.server";
import { resetInvite, setEmailDomain, setJoinMode } from "~/models/community-rules.server";
import { requestWorkEmailCode, verifyWorkEmailCode } from "~/models/work-email.server";
import { kickOutbox } from "./outbox.server";
import type { communityActionSchema } from "~/schemas/communities";
import { publishChange } from "./fanout.server";
import type { Toast } from "./toast.server";

type MemberIntent = Extract<
  z.infer<typeof communityActionSchema>,
  { intent: "remove" | "suspend" | "unsuspend" | "handover" | "set-join-mode" | "invite-reset" | "invite-revoke" | "set-email-domain" }
>;
type WorkEmailIntent = Extract<z.infer<typeof communityActionSchema>, { intent: "work-email-code" | "work-email-verify" }>;

const JOIN_RULE_TEXT = { open: "Anyone can join at once.", moderated: "Moderators approve each request.", invite: "People join with the invitation link." };

/** The community page's member-moderation intents (issue 16): model call, live fan-out, toast. */
export async function moderateMemberIntent(
  context: Pick<AppLoadContext, "db" | "env" | "ctx">,
  userId: string | null,
  communityId: string,
  value: MemberIntent,
): Promise<Toast> {
  switch (value.intent) {
    case "remove": {
      const r = await removeMember(context, userId, communityId, value.memberId);
      publishChange(context, r.audience);
      return { title: "Member Removed", description: `${r.memberName} was removed; their bookings on this community's upcoming rides were cancelled.` };
    }
    case "suspend": {
      const r = await suspendMember(context, userId, communityId, value.memberId, value.days);
      publishChange(context, r.audience);
      return { title: "Member Suspended", description: `Suspended until ${formatDateTimeShort(r.until)}.` };
    }
    case "unsuspend": {
      const r = await liftSuspension(context, userId, communityId, value.memberId);
      publishChange(context, r.audience);
      return { title: "Suspension Lifted" };
    }
    case "handover": {
      const r = await handOverAdmin(context, userId, communityId, value.memberId);
      publishChange(context, r.audience);
      return { title: "Admin Handed Over", description: "You are now a moderator of this community." };
    }
    case "set-join-mode": {
      await setJoinMode(context, userId, communityId, value.mode);
      return { title: "Join Rule Updated", description: JOIN_RULE_TEXT[value.mode] };
    }
    case "invite-reset":
    case "invite-revoke": {
      const revoke = value.intent === "invite-revoke";
      await resetInvite(context, userId, communityId, revoke);
      return { title: revoke ? "Invitation Link Revoked" : "New Invitation Link", description: "The previous link no longer works." };
    }
    case "set-email-domain": {
      const r = await setEmailDomain(context, userId, communityId, value.domain);
      return { title: "Join Rule Updated", description: `People join by verifying an address at @${r.domain}.` };
    }
  }
}

/** Issue 16: the viewer asks for a work e-mail code (sent through the outbox) or enters it. */
export async function workEmailIntent(context: Pick<AppLoadContext, "db" | "env" | "ctx">, userId: string, communityId: string, value: WorkEmailIntent): Promise<Toast> {
  if (value.intent === "work-email-code") {
    const r = await requestWorkEmailCode(context, userId, communityId, value.email);
    kickOutbox(context);
    return { title: "Code Sent", description: `We e-mailed a 6-digit code to ${r.email}. It works for 10 minutes.` };
  }
  const r = await verifyWorkEmailCode(context, userId, communityId, value.code);
  return { title: "Welcome!", description: `You verified your @${r.domain} address and joined ${r.name}.` };
}
