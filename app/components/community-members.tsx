import { Form } from "@remix-run/react";
import type { MemberRole } from "~/models/communities.server";
import { Avatar } from "./avatar";
import { ModeratorBadge } from "./community-badges";
import { MoreLink } from "./more-link";
import { VerifiedBadge } from "./verified-badge";
import { smallButtonClass, smallPrimaryClass } from "./styles";
import { formatDateTimeShort } from "~/domain/time";

export type MemberView = {
  id: string;
  role: MemberRole;
  requestedAt: number;
  fullName: string | null;
  avatarUrl: string | null;
  residentialArea: string | null;
  workplace: string | null;
  isSelf: boolean;
  /** Issue 16: the domain of the work e-mail they verified here (the badge). */
  verifiedDomain?: string | null;
};

function Person({ m }: { m: MemberView }) {
  const name = m.fullName ?? "Unknown User";
  return (
    <div className="flex min-w-0 items-center gap-3">
      <Avatar name={m.fullName} url={m.avatarUrl} />
      <div className="min-w-0">
        <p className="truncate font-medium">
          {name}
          {m.isSelf ? <span className="text-slate-700 dark:text-slate-300"> (you)</span> : null}
        </p>
        {m.verifiedDomain ? <VerifiedBadge badge={m.verifiedDomain} /> : null}
        {m.residentialArea || m.workplace ? (
          <p className="truncate text-sm text-slate-700 dark:text-slate-300">
            {[m.residentialArea, m.workplace].filter(Boolean).join(" · ")}
          </p>
        ) : null}
      </div>
    </div>
  );
}

const smallPrimary = smallPrimaryClass;
const smallSecondary = smallButtonClass;

function RoleBadge({ role }: { role: MemberRole }) {
  if (role === "admin") {
    return (
      <span className="rounded-full bg-slate-200 px-2.5 py-0.5 text-xs font-semibold text-slate-900 dark:bg-slate-700 dark:text-slate-50">
        Admin
      </span>
    );
  }
  if (role === "moderator") return <ModeratorBadge />;
  return null;
}

/** A member's promotion by a moderator (to moderator) or an admin (to admin): a plain form. */
function PromoteForm({ m, role, label }: { m: MemberView; role: "moderator" | "admin"; label: string }) {
  return (
    <Form method="post">
      <input type="hidden" name="memberId" value={m.id} />
      <input type="hidden" name="role" value={role} />
      {/* The accessible name starts with the visible text (WCAG 2.5.3, Label in Name). */}
      <button
        type="submit"
        name="intent"
        value="promote"
        className={smallSecondary}
        aria-label={`${label}: ${m.fullName ?? "member"}`}
      >
        {label}
      </button>
    </Form>
  );
}

export function MembersList({
  members,
  canModerate,
  canMakeAdmin,
}: {
  members: MemberView[];
  canModerate: boolean;
  canMakeAdmin: boolean;
}) {
  if (members.length === 0) return <p className="text-slate-700 dark:text-slate-300">No members yet.</p>;
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Members">
      {members.map((m) => (
        <li key={m.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="member">
          <Person m={m} />
          <div className="flex items-center gap-2">
            <RoleBadge role={m.role} />
            {canModerate && m.role === "member" ? <PromoteForm m={m} role="moderator" label="Make moderator" /> : null}
            {canMakeAdmin && m.role === "moderator" ? <PromoteForm m={m} role="admin" label="Make admin" /> : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The next page of a list (ADR 0025): a plain link, or nothing on its last page. */

export function ModerationPanel({
  pending,
  rejected,
  counts,
  more,
}: {
  pending: MemberView[];
  rejected: MemberView[];
  /** Every pending / rejected request, not only this page's. */
  counts: { pending: number; rejected: number };
  more: { pending: string | null; rejected: string | null };
}) {
  return (
    <div className="space-y-8">
      <section aria-labelledby="pending-requests">
        <h2 id="pending-requests" className="text-lg font-semibold">
          {`Pending Requests (${counts.pending})`}
        </h2>
        {pending.length === 0 ? (
          <p className="mt-2 text-slate-700 dark:text-slate-300">No pending requests.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800" data-testid="pending-requests">
            {pending.map((m) => (
              <li
                key={m.id}
                className="flex flex-wrap items-center justify-between gap-3 py-3"
                data-testid="pending-request"
              >
                <div>
                  <Person m={m} />
                  <p className="mt-1 text-xs text-slate-700 dark:text-slate-300">
                    Requested {formatDateTimeShort(m.requestedAt)}
                  </p>
                </div>
                <Form method="post" className="flex gap-2">
                  <input type="hidden" name="memberId" value={m.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="approve"
                    className={smallPrimary}
                    aria-label={`Approve ${m.fullName ?? "request"}`}
                  >
                    Approve
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value="reject"
                    className={smallSecondary}
                    aria-label={`Reject ${m.fullName ?? "request"}`}
                  >
                    Reject
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        <MoreLink href={more.pending} testId="more-pending" label="More requests" />
      </section>
      <section aria-labelledby="rejected-requests">
        <h2 id="rejected-requests" className="text-lg font-semibold">
          {`Rejected Requests (${counts.rejected})`}
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          A rejected user cannot ask again until you clear their rejection.
        </p>
        {rejected.length === 0 ? (
          <p className="mt-2 text-slate-700 dark:text-slate-300">No rejected requests.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
            {rejected.map((m) => (
              <li
                key={m.id}
                className="flex flex-wrap items-center justify-between gap-3 py-3"
                data-testid="rejected-request"
              >
                <Person m={m} />
                <Form method="post">
                  <input type="hidden" name="memberId" value={m.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="clear"
                    className={smallSecondary}
                    aria-label={`Clear rejection of ${m.fullName ?? "user"}`}
                  >
                    Clear
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        <MoreLink href={more.rejected} testId="more-rejected" label="More rejected requests" />
      </section>
    </div>
  );
}
