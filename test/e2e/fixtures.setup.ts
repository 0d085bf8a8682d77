import { test } from "@playwright/test";
import { writeE2eDb } from "../support/d1-local";
import { createCommunity, signUpAndOnboard, unique, uniqueEmail } from "../support/e2e";
import { saveFixtures, type MemberListFixture } from "../support/e2e-fixtures";

// Runs before the js and no-js journeys (playwright.config.ts), alone: it is the only place a
// journey's data is written to the database from outside the server.
test("fixtures: a community with 25 members for each project's member-list journey", async ({ browser }) => {
  test.setTimeout(120_000);
  const fixtures: Record<string, MemberListFixture> = {};
  for (const project of ["js", "no-js"]) {
    const page = await browser.newPage();
    const email = uniqueEmail();
    const password = "green-commute-2026";
    await signUpAndOnboard(page, { fullName: "Club Founder", email, password });
    const path = await createCommunity(page, unique("Cubbon Park Cyclists"));
    const communityId = path.split("/").pop()!;
    const tag = `${project}${Date.now().toString(36)}`.replace(/[^a-z0-9]/g, "");
    // 25 more members, who joined a day before the founder's page is read (ordered by joining).
    const seq = "WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 25)";
    const t = Date.now() - 86_400_000;
    writeE2eDb(
      [
        `${seq} INSERT INTO users (id, email, created_at) SELECT '${tag}u' || n, '${tag}' || n || '@example.test', ${t} FROM seq`,
        `${seq} INSERT INTO user_profiles (user_id, full_name, first_name, created_at, updated_at) SELECT '${tag}u' || n, 'Cyclist ' || printf('%02d', n), 'Cyclist', ${t}, ${t} FROM seq`,
        `${seq} INSERT INTO user_settings (user_id, updated_at) SELECT '${tag}u' || n, ${t} FROM seq`,
        `${seq} INSERT INTO community_members (id, community_id, user_id, status, role, requested_at) SELECT '${tag}m' || n, '${communityId}', '${tag}u' || n, 'approved', 'member', ${t} + n * 1000 FROM seq`,
        `UPDATE communities SET member_count = (SELECT count(*) FROM community_members WHERE community_id = '${communityId}' AND status = 'approved') WHERE id = '${communityId}'`,
      ].join("; "),
    );
    fixtures[project] = { email, password, path };
    await page.context().close();
  }
  saveFixtures(fixtures);
});
