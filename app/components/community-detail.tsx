import { Link } from "@remix-run/react";
import { formatDate, istDate } from "~/domain/time";
import type { CommunityType, MembershipStatus } from "~/models/communities.server";
import { CommunityTypeBadge, ModeratorBadge, memberCountLabel } from "./community-badges";
import { MembershipButton } from "./community-card";
import { CommunityRulesSummary } from "./community-rules";

type Community = {
  name: string;
  type: CommunityType;
  description: string | null;
  location: string | null;
  memberCount: number;
  createdAt: number;
  joinMode: string;
  emailDomain?: string | null;
};

/** The community page's card: name, badges, the viewer's membership button and the facts. */
/** `invite`: an invitation link's token (?invite=), carried by the Join button (issue 16). */
export function CommunityHeader({
  community,
  membership,
  canModerate,
  invite,
}: {
  community: Community;
  membership: MembershipStatus;
  canModerate: boolean;
  invite?: string | null;
}) {
  return (
    <header className="space-y-3 rounded-xl border border-slate-200 p-6 dark:border-slate-800">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="space-y-2">
          <h1 className="text-2xl font-bold">{community.name}</h1>
          <div className="flex flex-wrap gap-2">
            <CommunityTypeBadge type={community.type} />
            {canModerate ? <ModeratorBadge /> : null}
          </div>
        </div>
        {/* Issue 16: a work e-mail community is joined with the code form below, not a Join button. */}
        {community.joinMode === "domain" && membership === "not_member" ? null : (
          <MembershipButton membership={membership} communityName={community.name} invite={invite} />
        )}
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
        <CommunityRulesSummary joinMode={community.joinMode} emailDomain={community.emailDomain} />
      </dl>
    </header>
  );
}

const tabClass = (active: boolean) =>
  `-mb-px inline-block border-b-2 px-3 py-2 text-sm font-medium ${
    active
      ? "border-emerald-700 text-emerald-900 dark:border-emerald-400 dark:text-emerald-200"
      : "border-transparent text-slate-700 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
  }`;

/** Members / Moderation (N) / Audit log (admins) tabs, as links (?tab=), so they work without JavaScript. */
export function CommunityTabs({
  tab,
  canModerate,
  canSeeAudit,
  pendingCount,
}: {
  tab: string;
  canModerate: boolean;
  canSeeAudit: boolean;
  pendingCount: number;
}) {
  return (
    <nav aria-label="Community sections">
      <ul className="flex gap-2 border-b border-slate-200 dark:border-slate-800">
        <li>
          <Link
            to="?tab=members"
            aria-current={tab === "members" ? "page" : undefined}
            className={tabClass(tab === "members")}
          >
            Members
          </Link>
        </li>
        {canModerate ? (
          <li>
            <Link
              to="?tab=moderation"
              aria-current={tab === "moderation" ? "page" : undefined}
              className={tabClass(tab === "moderation")}
            >
              Moderation{pendingCount ? ` (${pendingCount})` : ""}
            </Link>
          </li>
        ) : null}
        {canSeeAudit ? (
          <li>
            <Link
              to="?tab=audit"
              aria-current={tab === "audit" ? "page" : undefined}
              className={tabClass(tab === "audit")}
            >
              Audit log
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/** What a non-member sees instead of the member list. */
export function MembersHidden({ membership }: { membership: MembershipStatus }) {
  return (
    <p data-testid="members-hidden" className="text-slate-700 dark:text-slate-300">
      Members and the rides they share are visible to approved members of this community only.
      {membership === "not_member"
        ? " Join to see who is here."
        : membership === "pending"
          ? " Your request is waiting for a moderator."
          : ""}
    </p>
  );
}
