import { describe, expect, it } from "vitest";
import {
  rowsGrowthByStatement,
  rowsGrowthTable,
  statementLabel,
  STATEMENT_ROWS_LOG,
} from "../../scripts/bench/rows-diff.mjs";
import { STATEMENT_ROWS_LOG as SERVER_PREFIX } from "~/utils/d1-stats.server";

// The bench's "which statement read more rows on the large city" (issue 17): statements are
// paired by SQL and occurrence, a statement one side did not run counts as 0 rows there, and
// the most grown come first.

const badge = 'select count(*) from (select 1 from "messages" where "messages"."receiver_id" = ?)';
const discover =
  'select "rides"."id" from "rides" left join "user_profiles" on 1 where "rides"."community_id" IN (SELECT 1 FROM "community_members")';
const count = 'select count(*) from "rides"';

describe("rows read by statement, small dataset against large", () => {
  it("the bench reads the prefix the server writes", () => {
    expect(STATEMENT_ROWS_LOG).toBe(SERVER_PREFIX);
  });

  it("lists only statements that read more on the large dataset, most grown first", () => {
    const small = [
      { sql: badge, rowsRead: 7, returned: 1 },
      { sql: discover, rowsRead: 91, returned: 21 },
      { sql: count, rowsRead: 200, returned: 1 },
    ];
    const large = [
      { sql: badge, rowsRead: 26, returned: 1 },
      { sql: discover, rowsRead: 250, returned: 21 },
      { sql: count, rowsRead: 150, returned: 1 },
    ];
    expect(rowsGrowthByStatement(small, large)).toEqual([
      { sql: discover, smallRows: 91, largeRows: 250, smallReturned: 21, largeReturned: 21 },
      { sql: badge, smallRows: 7, largeRows: 26, smallReturned: 1, largeReturned: 1 },
    ]);
  });

  it("pairs the same SQL run twice first with first, and counts a statement one side lacks as 0 rows there", () => {
    const small = [
      { sql: count, rowsRead: 10, returned: 1 },
      { sql: count, rowsRead: 50, returned: 1 },
    ];
    const large = [
      { sql: count, rowsRead: 12, returned: 1 },
      { sql: count, rowsRead: 50, returned: 1 },
      { sql: badge, rowsRead: 3, returned: 1 },
    ];
    expect(rowsGrowthByStatement(small, large)).toEqual([
      { sql: badge, smallRows: 0, largeRows: 3, smallReturned: 0, largeReturned: 1 },
      { sql: count, smallRows: 10, largeRows: 12, smallReturned: 1, largeReturned: 1 },
    ]);
    expect(rowsGrowthByStatement(null, undefined)).toEqual([]);
  });

  it("names a statement by the tables it reads, and tabulates the top ones a page", () => {
    expect(statementLabel(discover)).toBe("select rides, user_profiles, community_members");
    const grown = rowsGrowthByStatement(
      [{ sql: discover, rowsRead: 91, returned: 21 }],
      [{ sql: discover, rowsRead: 250, returned: 21 }],
    );
    expect(rowsGrowthTable([{ name: "/rides", rowsGrowthBy: grown }])).toContain(
      "| /rides | select rides, user_profiles, community_members | 91 → 250 | 21 → 21 |",
    );
    expect(rowsGrowthTable([{ name: "/rides", rowsGrowthBy: [] }])).toBe(
      "No statement read more rows on the large dataset.",
    );
  });
});
