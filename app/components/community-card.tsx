import { Form, Link } from "@remix-run/react";
import type { CommunityType, MembershipStatus } from "~/models/communities.server";
import { CommunityTypeBadge, memberCountLabel } from "./community-badges";
import { buttonClass, secondaryButtonClass } from "./forms";

const disabledClass =
  "inline-flex cursor-not-allowed items-center justify-center rounded-md border border-slate-300 bg-slate-100 px-4 py-2 font-medium text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-300";

/** Join / Request pending / Rejected / Leave, as a real form (works without JavaScript). */
export function MembershipButton({
  membership,
  communityId,
  communityName,
  busy = false,
  invite,
}: {
  membership: MembershipStatus;
  communityId?: string;
  communityName: string;
  busy?: boolean;
  /** Issue 16: the invitation link's token, sent with Join. */
  invite?: string | null;
}) {
  if (membership === "pending") {
    return (
      <button type="button" disabled className={disabledClass}>
        Request pending
      </button>
    );
  }
  if (membership === "rejected") {
    return (
      <button type="button" disabled className={disabledClass}>
        Rejected
      </button>
    );
  }
  const intent = membership === "approved" ? "leave" : "join";
  return (
    <Form method="post" preventScrollReset>
      {communityId ? <input type="hidden" name="communityId" value={communityId} /> : null}
      {invite && intent === "join" ? <input type="hidden" name="invite" value={invite} /> : null}
      <button
        type="submit"
        name="intent"
        value={intent}
        disabled={busy}
        aria-label={`${intent === "join" ? "Join" : "Leave"} ${communityName}`}
        className={intent === "join" ? buttonClass : secondaryButtonClass}
      >
        {intent === "join" ? "Join" : "Leave"}
      </button>
    </Form>
  );
}

export type CommunityCardData = {
  id: string;
  name: string;
  type: CommunityType;
  location: string;
  description: string;
  memberCount: number;
  membership: MembershipStatus;
};

export function CommunityCard({ community }: { community: CommunityCardData }) {
  return (
    <li
      className="flex flex-col gap-3 rounded-xl border border-slate-200 p-5 dark:border-slate-800"
      data-testid="community-card"
    >
      <div className="flex items-start justify-between gap-3">
        <h2 className="text-lg font-semibold">
          <Link to={`/communities/${community.id}`} className="text-emerald-800 hover:underline dark:text-emerald-300">
            {community.name}
          </Link>
        </h2>
        <CommunityTypeBadge type={community.type} />
      </div>
      <p className="text-sm text-slate-700 dark:text-slate-300">{community.location}</p>
      <p className="line-clamp-3 text-slate-800 dark:text-slate-200">{community.description}</p>
      <div className="mt-auto flex items-center justify-between gap-3 pt-2">
        <p className="text-sm font-medium text-slate-700 dark:text-slate-300" data-testid="member-count">
          {memberCountLabel(community.memberCount)}
        </p>
        <MembershipButton membership={community.membership} communityId={community.id} communityName={community.name} />
      </div>
    </li>
  );
}
