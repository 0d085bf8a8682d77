/** The periods a moderator may suspend a community member for, in days (issue 16). */
export const SUSPENSION_DAY_OPTIONS = [1, 3, 7, 14, 30, 90] as const;
