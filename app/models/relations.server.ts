import { sql, type SQL } from "drizzle-orm";

/**
 * Whether two people share something that lets them reach each other: both approved members of
 * one community, or driver and a pending/accepted rider of one ride (either direction). Who may
 * message whom and who may see a profile photo are this one relation. Every EXISTS runs on an
 * index (community_members_user_idx + community_members_unique; ride_requests_rider_status_idx
 * + the rides primary key).
 */
export function sharesCommunityOrRide(a: string, b: string) {
  return sql<number>`(
    EXISTS (SELECT 1 FROM community_members a
            JOIN community_members b ON b.community_id = a.community_id AND b.user_id = ${b} AND b.status = 'approved'
            WHERE a.user_id = ${a} AND a.status = 'approved')
    OR EXISTS (SELECT 1 FROM ride_requests rr JOIN rides r ON r.id = rr.ride_id
               WHERE rr.rider_id = ${b} AND rr.status IN ('pending','accepted') AND r.driver_id = ${a})
    OR EXISTS (SELECT 1 FROM ride_requests rr JOIN rides r ON r.id = rr.ride_id
               WHERE rr.rider_id = ${a} AND rr.status IN ('pending','accepted') AND r.driver_id = ${b})
  )`;
}

/**
 * Whether either of two people blocked the other (issue 16). THE blocking rule: messaging,
 * ride visibility (discover, ride pages, booking) and the guarded request and accept
 * statements all call this one function, so a blocked pair is hidden both ways everywhere.
 * `b` may be a column (e.g. rides.driver_id). Two primary-key lookups on user_blocks.
 */
export function blockedEitherWay(a: string | SQL, b: string | SQL) {
  return sql<number>`(
    EXISTS (SELECT 1 FROM user_blocks WHERE blocker_id = ${a} AND blocked_id = ${b})
    OR EXISTS (SELECT 1 FROM user_blocks WHERE blocker_id = ${b} AND blocked_id = ${a})
  )`;
}
