import { Form } from "@remix-run/react";
import { formatDateTimeShort } from "~/domain/time";
import type { MemberRole } from "~/models/communities.server";
import { SUSPENSION_DAY_OPTIONS } from "~/domain/moderation";
import { dangerButtonClass, smallButtonClass } from "./styles";

// The moderation tab's member list (issue 16): remove, suspend, lift a suspension and hand
// over admin, each a plain form (works without JavaScript). The buttons shown follow the
// rules the model enforces (community-moderation.server.ts); the model decides.

export type ModeratedMember = {
  id: string;
  role: MemberRole;
  fullName: string | null;
  isSelf: boolean;
  isCreator: boolean;
  suspendedUntil: number | null;
};

export type AuditRow = {
  id: string;
  action: string;
  detail: string | null;
  createdAt: number;
  actorName: string | null;
  targetName: string | null;
};

const RANK: Record<MemberRole, number> = { member: 0, moderator: 1, admin: 2 };

export function MemberModeration({
  members,
  viewerRank,
  viewerIsAdminMember,
}: {
  members: ModeratedMember[];
  /** 1 moderator, 2 admin (the creator counts as admin). */
  viewerRank: number;
  viewerIsAdminMember: boolean;
}) {
  return (
    <section aria-labelledby="manage-members" className="space-y-2">
      <h2 id="manage-members" className="text-lg font-semibold">
        Manage Members
      </h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Removing a member cancels their bookings on this community's upcoming rides and tells them and the drivers. A
        suspended member cannot share or book this community's rides until the suspension ends.
      </p>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="manage-members">
        {members.map((m) => {
          const name = m.fullName ?? "Member";
          const actionable = !m.isSelf && !m.isCreator && m.role !== "admin" && RANK[m.role] < viewerRank;
          return (
            <li
              key={m.id}
              className="flex flex-wrap items-center justify-between gap-3 py-3"
              data-testid="managed-member"
            >
              <div>
                <p className="font-medium">
                  {name}
                  {m.isSelf ? " (you)" : ""}{" "}
                  <span className="text-sm text-slate-700 dark:text-slate-300">· {m.role}</span>
                </p>
                {m.suspendedUntil ? (
                  <p className="text-sm text-amber-800 dark:text-amber-300" data-testid="suspended-until">
                    Suspended until {formatDateTimeShort(m.suspendedUntil)}
                  </p>
                ) : null}
              </div>
              <div className="flex flex-wrap items-center gap-2">
                {actionable ? (
                  <>
                    {m.suspendedUntil ? (
                      <Form method="post">
                        <input type="hidden" name="memberId" value={m.id} />
                        <button
                          type="submit"
                          name="intent"
                          value="unsuspend"
                          className={smallButtonClass}
                          aria-label={`Lift suspension of ${name}`}
                        >
                          Lift suspension
                        </button>
                      </Form>
                    ) : (
                      <Form method="post" className="flex items-center gap-1">
                        <input type="hidden" name="memberId" value={m.id} />
                        <label className="sr-only" htmlFor={`days-${m.id}`}>{`Suspension period for ${name}`}</label>
                        <select
                          id={`days-${m.id}`}
                          name="days"
                          defaultValue="7"
                          className="rounded-md border border-slate-400 px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-900"
                        >
                          {SUSPENSION_DAY_OPTIONS.map((d) => (
                            <option key={d} value={d}>{`${d} day${d === 1 ? "" : "s"}`}</option>
                          ))}
                        </select>
                        <button
                          type="submit"
                          name="intent"
                          value="suspend"
                          className={smallButtonClass}
                          aria-label={`Suspend ${name}`}
                        >
                          Suspend
                        </button>
                      </Form>
                    )}
                    <Form method="post">
                      <input type="hidden" name="memberId" value={m.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="remove"
                        className={dangerButtonClass}
                        aria-label={`Remove ${name}`}
                      >
                        Remove
                      </button>
                    </Form>
                  </>
                ) : null}
                {viewerIsAdminMember && !m.isSelf && m.role !== "admin" ? (
                  <Form method="post">
                    <input type="hidden" name="memberId" value={m.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="handover"
                      className={smallButtonClass}
                      aria-label={`Hand over admin to ${name}`}
                    >
                      Hand over admin
                    </button>
                  </Form>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

const ACTION_LABEL: Record<string, string> = {
  approve: "approved the request of",
  reject: "rejected the request of",
  clear: "cleared the rejection of",
  promote: "promoted",
  remove: "removed",
  suspend: "suspended",
  unsuspend: "lifted the suspension of",
  handover: "handed admin over to",
};

/** The moderation log, newest first (admins only; the model refuses anyone else). */
export function AuditLog({ entries }: { entries: AuditRow[] }) {
  return (
    <section aria-labelledby="audit-log" className="space-y-2">
      <h2 id="audit-log" className="text-lg font-semibold">
        Audit Log
      </h2>
      {entries.length === 0 ? (
        <p className="text-slate-700 dark:text-slate-300">No moderator actions yet.</p>
      ) : (
        <ol className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="audit-log">
          {entries.map((e) => (
            <li key={e.id} className="py-2 text-sm" data-testid="audit-entry">
              <span className="text-slate-700 dark:text-slate-300">{formatDateTimeShort(e.createdAt)}: </span>
              <strong>{e.actorName ?? "A moderator"}</strong> {ACTION_LABEL[e.action] ?? e.action}{" "}
              <strong>{e.targetName ?? "a member"}</strong>
              {e.detail ? ` (${e.detail})` : ""}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
