import type { CommunityType } from "~/models/communities.server";

const TYPE_LABEL: Record<CommunityType, string> = {
  residential: "Residential",
  workplace: "Workplace",
  interest: "Interest",
};
const TYPE_TONE: Record<CommunityType, string> = {
  residential: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-50",
  workplace: "bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-50",
  interest: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-50",
};

export function CommunityTypeBadge({ type }: { type: CommunityType }) {
  return (
    <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${TYPE_TONE[type]}`}>{TYPE_LABEL[type]}</span>
  );
}

export function ModeratorBadge() {
  return (
    <span className="rounded-full bg-violet-100 px-2.5 py-0.5 text-xs font-semibold text-violet-900 dark:bg-violet-900 dark:text-violet-50">
      Moderator
    </span>
  );
}

export function memberCountLabel(n: number) {
  return `${n} ${n === 1 ? "member" : "members"}`;
}
