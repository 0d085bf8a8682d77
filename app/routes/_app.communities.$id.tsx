import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { CommunityHeader, CommunityTabs, MembersHidden } from "~/components/community-detail";
import { MembersList, ModerationPanel } from "~/components/community-members";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getCommunityDetail } from "~/models/communities.server";
import { requireUser } from "~/utils/auth.server";
import { handleCommunityIntent } from "~/utils/community-actions.server";
import { NOT_FOUND, orRespond } from "~/utils/errors.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.community.name} | LoopRide` : "Community not found | LoopRide" },
];

function tabOf(url: URL) {
  return url.searchParams.get("tab") === "moderation" ? "moderation" : "members";
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const detail = await orRespond(getCommunityDetail(context, user.id, params.id ?? ""), NOT_FOUND.community);
  const tab = tabOf(new URL(request.url));
  return { ...detail, tab: tab === "moderation" && detail.canModerate ? tab : "members" };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  return handleCommunityIntent(request, context, params.id ?? "", await request.formData(), tabOf(new URL(request.url)));
}

export default function CommunityDetailPage() {
  const { community, membership, canModerate, canMakeAdmin, membersVisible, members, pending, rejected, tab } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-6 md:px-0">
      <Link to="/communities" className="text-sm font-medium text-emerald-800 underline dark:text-emerald-300">
        Back
      </Link>
      <CommunityHeader community={community} membership={membership} canModerate={canModerate} />
      <CommunityTabs tab={tab} canModerate={canModerate} pendingCount={pending.length} />
      {tab === "moderation" && canModerate ? (
        <ModerationPanel pending={pending} rejected={rejected} />
      ) : membersVisible ? (
        <MembersList members={members} canModerate={canModerate} canMakeAdmin={canMakeAdmin} />
      ) : (
        <MembersHidden membership={membership} />
      )}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
