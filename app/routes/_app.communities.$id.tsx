import { publishChange } from "~/utils/fanout.server";
import { parseWithZod } from "@conform-to/zod";
import { type AppLoadContext, data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { CommunityTypeBadge, ModeratorBadge, memberCountLabel } from "~/components/community-badges";
import { MembershipButton } from "~/components/community-card";
import { MembersList, ModerationPanel } from "~/components/community-members";
import { AuditLog, MemberModeration } from "~/components/community-moderation";
import { CommunityRulesForm, CommunityRulesSummary } from "~/components/community-rules";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { formatDate, istDate } from "~/domain/time";
import {
  clearRejection,
  COMMUNITY_NOT_FOUND,
  decideJoinRequest,
  getCommunityDetail,
  leaveCommunity,
  promoteMember,
  requestToJoin,
} from "~/models/communities.server";
import { ConflictError, isModelError } from "~/models/errors.server";
import { communityActionSchema } from "~/schemas/communities";
import { getUser, requireUser } from "~/utils/auth.server";
import { orRespond } from "~/utils/errors.server";
import { moderateMemberIntent } from "~/utils/community-moderation.server";
import { listAuditLog } from "~/models/community-audit.server";
import type { Db } from "~/models/db.server";
import { redirectWithToast, type Toast } from "~/utils/toast.server";
import type { z } from "zod";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.community.name} | LoopRide` : "Community not found | LoopRide" },
];

function tabOf(url: URL) {
  const tab = url.searchParams.get("tab");
  return tab === "moderation" || tab === "audit" ? tab : "members";
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const detail = await orRespond(getCommunityDetail(context, user.id, params.id ?? ""));
  const tab = tabOf(new URL(request.url));
  // The moderation log is for admins (issue 16); anyone else asking for it sees the members.
  const audit = tab === "audit" && detail.canMakeAdmin ? await orRespond(listAuditLog(context, user.id, detail.community.id)) : null;
  const url = new URL(request.url);
  // Issue 16: an invitation link (?invite=token) is carried by the Join button; the admins see their link.
  const invite = url.searchParams.get("invite")?.slice(0, 64) ?? null;
  const inviteUrl = detail.inviteToken ? `${url.origin}/communities/${encodeURIComponent(detail.community.id)}?invite=${detail.inviteToken}` : null;
  return { ...detail, audit, invite, inviteUrl, tab: (tab === "moderation" && detail.canModerate) || audit ? tab : "members" };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const communityId = params.id ?? "";
  const url = new URL(request.url);
  // The id comes from the URL, decoded: encode it again for the Location header (a NUL or
  // newline in it made the redirect itself throw, a 500).
  const here = `/communities/${encodeURIComponent(communityId)}`;
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: communityActionSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const value = submission.value;
  // Visitors: joining asks them to sign in; moderation is refused by the model (403).
  const visitor = !(await getUser(request, context));
  if (visitor && (value.intent === "join" || value.intent === "leave")) {
    return redirectWithToast(request, context.env, `/login?redirectTo=${encodeURIComponent(here)}`, {
      title: "Authentication Required",
      description: "Please sign in to join communities.",
      type: "info",
    });
  }
  const userId = visitor ? null : (await requireUser(request, context)).id;

  if (value.intent === "join" || value.intent === "leave") {
    try {
      if (value.intent === "join") {
        const c = await requestToJoin(context, userId!, communityId, undefined, { invite: value.invite });
        return redirectWithToast(request, context.env, here, c.joined
          ? { title: "Welcome!", description: `You joined ${c.name}.` }
          : { title: "Request Sent", description: `Your request to join ${c.name} has been sent. Community moderators will review your request.` });
      }
      const c = await leaveCommunity(context, userId!, communityId);
      return redirectWithToast(request, context.env, here, { title: "Left Community", description: `You have left ${c.name}` });
    } catch (e) {
      if (!isModelError(e)) console.error(e);
      if (isModelError(e) && e.status === 404) throw data(COMMUNITY_NOT_FOUND, { status: 404 });
      const description = isModelError(e) ? e.message : "Failed to join/leave community. Please try again.";
      return redirectWithToast(request, context.env, here, { title: "Error", description, type: "error" });
    }
  }

  const moderation = `${here}?tab=moderation`;
  const back = tabOf(url) === "moderation" || value.intent !== "promote" ? moderation : `${here}?tab=members`;
  const failure = {
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
  }[value.intent];
  try {
    const toast = await orRespond(
      moderate(context, userId, communityId, value).catch((e) => {
        // A request that is no longer pending (409) is a toast; 403 / 404 stay error pages.
        if (e instanceof ConflictError) return { title: "Error", description: e.message, type: "error" as const };
        throw e;
      }),
    );
    return redirectWithToast(request, context.env, back, toast);
  } catch (e) {
    if (!(e instanceof Error)) throw e; // the 403 / 404 response from orRespond
    console.error(e);
    return redirectWithToast(request, context.env, back, { title: "Error", description: failure, type: "error" });
  }
}

async function moderate(
  context: Pick<AppLoadContext, "db" | "env" | "ctx">,
  userId: string | null,
  communityId: string,
  value: Exclude<z.infer<typeof communityActionSchema>, { intent: "join" | "leave" }>,
): Promise<Toast> {
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
    case "remove":
    case "suspend":
    case "unsuspend":
    case "handover":
    case "set-join-mode":
    case "invite-reset":
    case "invite-revoke":
      return moderateMemberIntent(context, userId, communityId, value);
  }
}

const tabClass = (active: boolean) =>
  `-mb-px inline-block border-b-2 px-3 py-2 text-sm font-medium ${
    active
      ? "border-emerald-700 text-emerald-900 dark:border-emerald-400 dark:text-emerald-200"
      : "border-transparent text-slate-700 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
  }`;

export default function CommunityDetailPage() {
  const { community, membership, viewerRole, canModerate, canMakeAdmin, membersVisible, members, pending, rejected, audit, invite, inviteUrl, tab } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-6 md:px-0">
      <Link to="/communities" className="text-sm font-medium text-emerald-800 underline dark:text-emerald-300">
        Back
      </Link>
      <header className="space-y-3 rounded-xl border border-slate-200 p-6 dark:border-slate-800">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="space-y-2">
            <h1 className="text-2xl font-bold">{community.name}</h1>
            <div className="flex flex-wrap gap-2">
              <CommunityTypeBadge type={community.type} />
              {canModerate ? <ModeratorBadge /> : null}
            </div>
          </div>
          <MembershipButton membership={membership} communityName={community.name} invite={invite} />
        </div>
        <p className="text-slate-800 dark:text-slate-200">{community.description}</p>
        <dl className="grid gap-2 text-sm sm:grid-cols-3">
          <div>
            <dt className="font-medium text-slate-700 dark:text-slate-300">Location</dt>
            <dd>{community.location}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-700 dark:text-slate-300">Members</dt>
            <dd data-testid="member-count">{memberCountLabel(community.memberCount)}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-700 dark:text-slate-300">Created</dt>
            <dd>{formatDate(istDate(community.createdAt))}</dd>
          </div>
          <CommunityRulesSummary joinMode={community.joinMode} />
        </dl>
      </header>

      <nav aria-label="Community sections">
        <ul className="flex gap-2 border-b border-slate-200 dark:border-slate-800">
          <li>
            <Link to="?tab=members" aria-current={tab === "members" ? "page" : undefined} className={tabClass(tab === "members")}>
              Members
            </Link>
          </li>
          {canModerate ? (
            <li>
              <Link to="?tab=moderation" aria-current={tab === "moderation" ? "page" : undefined} className={tabClass(tab === "moderation")}>
                Moderation{pending.length ? ` (${pending.length})` : ""}
              </Link>
            </li>
          ) : null}
          {canMakeAdmin ? (
            <li>
              <Link to="?tab=audit" aria-current={tab === "audit" ? "page" : undefined} className={tabClass(tab === "audit")}>
                Audit log
              </Link>
            </li>
          ) : null}
        </ul>
      </nav>

      {tab === "audit" && audit ? (
        <AuditLog entries={audit} />
      ) : tab === "moderation" && canModerate ? (
        <div className="space-y-8">
          {canMakeAdmin ? <CommunityRulesForm joinMode={community.joinMode} inviteUrl={inviteUrl} /> : null}
          <ModerationPanel pending={pending} rejected={rejected} />
          <MemberModeration members={members} viewerRank={canMakeAdmin ? 2 : 1} viewerIsAdminMember={viewerRole === "admin"} />
        </div>
      ) : membersVisible ? (
        <MembersList members={members} canModerate={canModerate} canMakeAdmin={canMakeAdmin} />
      ) : (
        <p data-testid="members-hidden" className="text-slate-700 dark:text-slate-300">
          Members and the rides they share are visible to approved members of this community only.
          {membership === "not_member" ? " Join to see who is here." : membership === "pending" ? " Your request is waiting for a moderator." : ""}
        </p>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div className="mx-auto flex max-w-xl flex-col items-center gap-4 p-8 text-center">
        <h1 className="text-2xl font-bold">Community not found</h1>
        <p className="text-slate-700 dark:text-slate-300">This community may have been removed, or the link is wrong.</p>
        <Link to="/communities" className="rounded-md bg-emerald-700 px-4 py-2 font-medium text-white hover:bg-emerald-800">
          Back to Communities
        </Link>
      </div>
    );
  }
  return <GeneralErrorBoundary />;
}
