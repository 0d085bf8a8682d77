// Data the journeys need that the UI would take dozens of sign-ups to make, written by the
// "fixtures" project (test/e2e/fixtures.setup.ts) before any journey runs. Writing the
// database from a second process while the server answers journeys makes their requests
// fail with SQLITE_BUSY, so no journey writes it directly. Keyed by the e2e server's port,
// so runs never meet.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";

export type MemberListFixture = { email: string; password: string; path: string };

const file = () => `.cache/e2e-fixtures-${process.env.E2E_PORT ?? "none"}.json`;

export function saveFixtures(fixtures: Record<string, MemberListFixture>) {
  mkdirSync(".cache", { recursive: true });
  writeFileSync(file(), JSON.stringify(fixtures));
}

/** The community of 26 members (a founder and 25 earlier joiners) made for one project. */
export function memberListFixture(project: string): MemberListFixture {
  const all = JSON.parse(readFileSync(file(), "utf8")) as Record<string, MemberListFixture>;
  const f = all[project];
  if (!f) throw new Error(`no member-list fixture for project ${project}`);
  return f;
}
