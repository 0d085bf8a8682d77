import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { CommunityHeader, CommunityTabs, MembersHidden } from "~/components/community-detail";
import { MembersList, ModerationPanel } from "~/components/community-members";
import { MoreLink } from "~/components/more-link";
import { AuditLog, MemberModeration } from "~/components/community-moderation";
import { CommunityRulesForm } from "~/components/community-rules";
import { WorkEmailJoin } from "~/components/community-work-email";
import { CommunityPolicyForm, CommunityPolicySummary } from "~/components/community-policy";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getCommunityDetail } from "~/models/communities.server";
import { auditLogFrom, auditLogQueries } from "~/models/community-audit.server";
import { WORK_EMAIL_READS, workEmailFrom, workEmailQueries } from "~/models/work-email.server";
import { requireUser } from "~/utils/auth.server";
import { handleCommunityIntent } from "~/intents/communities.server";
import { NOT_FOUND, orRespond } from "~/utils/errors.server";
import { parseCursor } from "~/domain/cursor";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.community.name} | LoopRide` : "Community not found | LoopRide" },
];

function tabOf(url: URL) {
  const tab = url.searchParams.get("tab");
  return tab === "moderation" || tab === "audit" ? tab : "members";
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const url = new URL(request.url);
  const tab = tabOf(url);
  const pages = {
    members: parseCursor(url.searchParams.get("after")),
    pending: parseCursor(url.searchParams.get("pending")),
    rejected: parseCursor(url.searchParams.get("rejected")),
    moderation: tab === "moderation",
  };
  const id = params.id ?? "";
  // One batch (ADR 0029): the viewer's work e-mail state (their own rows) and, on the audit
  // tab, the log (its rows guarded in SQL to admins) come with the community's detail, all
  // built once per isolate (ADR 0069).
  const { also: read, ...detail } = await orRespond(
    getCommunityDetail(context, user.id, id, pages, {
      key: tab === "audit" ? "work-email+audit" : "work-email",
      make: (v) => [
        ...workEmailQueries(context.db, v.viewerId, v.communityId),
        ...(tab === "audit" ? auditLogQueries(context.db, v.viewerId, v.communityId) : []),
      ],
    }),
    NOT_FOUND.community,
  );
  // The moderation log is for admins (issue 16); anyone else asking for it sees the members.
  const audit = tab === "audit" && detail.canMakeAdmin ? auditLogFrom(read.slice(WORK_EMAIL_READS)) : null;
  // An invitation link (?invite=token) is carried by the Join button; the admins see their link.
  const invite = url.searchParams.get("invite")?.slice(0, 64) ?? null;
  const inviteUrl = detail.inviteToken
    ? `${url.origin}/communities/${encodeURIComponent(detail.community.id)}?invite=${detail.inviteToken}`
    : null;
  // Issue 16: the viewer's own work e-mail code and verification, where the community joins by one.
  const workEmail = detail.community.joinMode === "domain" ? workEmailFrom(read.slice(0, WORK_EMAIL_READS)) : null;
  return {
    ...detail,
    audit,
    invite,
    inviteUrl,
    workEmail,
    tab: (tab === "moderation" && detail.canModerate) || audit ? tab : "members",
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  return handleCommunityIntent(
    request,
    context,
    params.id ?? "",
    await request.formData(),
    tabOf(new URL(request.url)),
  );
}

export default function CommunityDetailPage() {
  const {
    community,
    membership,
    viewerRole,
    canModerate,
    canMakeAdmin,
    membersVisible,
    members,
    pending,
    rejected,
    pendingCount,
    rejectedCount,
    more,
    audit,
    invite,
    inviteUrl,
    workEmail,
    policy,
    tab,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // A refused form (400) comes back with its field messages (issue 16's domain, address and code forms).
  const errors = (actionData as { error?: Record<string, string[] | null> } | undefined)?.error ?? {};
  // "More" links: plain hrefs with the list's cursor, on the tab they belong to (ADR 0025).
  const moreHref = (param: string, cursor: string | null) =>
    cursor ? `?${tab === "moderation" ? "tab=moderation&" : ""}${param}=${cursor}` : null;
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-6 md:px-0">
      <Link to="/communities" className="text-sm font-medium text-emerald-800 underline dark:text-emerald-300">
        Back
      </Link>
      <CommunityHeader community={community} membership={membership} canModerate={canModerate} invite={invite} />
      {workEmail && community.emailDomain ? (
        <WorkEmailJoin domain={community.emailDomain} state={workEmail} membership={membership} errors={errors} />
      ) : null}
      {policy ? <CommunityPolicySummary policy={policy} /> : null}
      <CommunityTabs tab={tab} canModerate={canModerate} canSeeAudit={canMakeAdmin} pendingCount={pendingCount} />
      {tab === "audit" && audit ? (
        <AuditLog entries={audit} />
      ) : tab === "moderation" && canModerate ? (
        <div className="space-y-8">
          {canMakeAdmin ? (
            <CommunityRulesForm
              joinMode={community.joinMode}
              inviteUrl={inviteUrl}
              emailDomain={community.emailDomain}
              domainErrors={errors.domain}
            />
          ) : null}
          {policy?.canEdit ? (
            <CommunityPolicyForm
              policy={policy}
              lastResult={actionData && "status" in actionData ? actionData : undefined}
            />
          ) : null}
          <ModerationPanel
            pending={pending}
            rejected={rejected}
            counts={{ pending: pendingCount, rejected: rejectedCount }}
            more={{ pending: moreHref("pending", more.pending), rejected: moreHref("rejected", more.rejected) }}
          />
          <MemberModeration
            members={members}
            viewerRank={canMakeAdmin ? 2 : 1}
            viewerIsAdminMember={viewerRole === "admin"}
          />
          <MoreLink href={moreHref("after", more.members)} testId="more-members" label="More members" />
        </div>
      ) : membersVisible ? (
        <>
          <MembersList members={members} canModerate={canModerate} canMakeAdmin={canMakeAdmin} />
          <MoreLink href={moreHref("after", more.members)} testId="more-members" label="More members" />
        </>
      ) : (
        <MembersHidden membership={membership} />
      )}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
