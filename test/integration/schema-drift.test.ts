import { env } from "../support/env";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../db/schema";

const tables = Object.values(schema).filter((v) => v instanceof SQLiteTable) as SQLiteTable[];

describe("migrations match the drizzle schema", () => {
  it("declares the tables the product needs", () => {
    const names = tables.map((t) => getTableConfig(t).name).sort();
    for (const required of [
      "users",
      "passwords",
      "oauth_accounts",
      "sessions",
      "user_profiles",
      "user_settings",
      "communities",
      "community_members",
      "rides",
      "ride_requests",
      "notifications",
      "messages",
      "conversations",
      "user_credits",
      "credit_transactions",
      "referrals",
      "user_referral_codes",
      "payments",
      "ride_ratings",
      "saved_rides",
    ]) {
      expect(names).toContain(required);
    }
  });

  for (const table of tables) {
    const config = getTableConfig(table);
    it(`${config.name}: every declared column and index exists after migrating`, async () => {
      const cols = await env.DB.prepare(`SELECT name, "notnull" AS nn FROM pragma_table_xinfo(?)`)
        .bind(config.name)
        .all<{ name: string; nn: number }>();
      const actual = new Map(cols.results.map((c) => [c.name, c.nn]));
      expect(actual.size, `table ${config.name} missing`).toBeGreaterThan(0);
      for (const column of config.columns) {
        expect(actual.has(column.name), `${config.name}.${column.name}`).toBe(true);
        expect(actual.get(column.name) === 1 || column.primary, `${config.name}.${column.name} NOT NULL`).toBe(
          column.notNull || column.primary,
        );
      }
      const idx = await env.DB.prepare(`SELECT name FROM pragma_index_list(?)`)
        .bind(config.name)
        .all<{ name: string }>();
      const indexNames = new Set(idx.results.map((i) => i.name));
      for (const index of config.indexes) {
        expect(indexNames.has(index.config.name), `index ${index.config.name}`).toBe(true);
      }
    });
  }
});

describe("the database guards its invariants", () => {
  it("refuses more booked seats than offered, and seats outside 1..6", async () => {
    await env.DB.prepare("INSERT INTO users (id, email, created_at) VALUES ('u1', 'a@b.c', 0)").run();
    const insert = (seats: number, booked: number) =>
      env.DB.prepare(
        "INSERT INTO rides (id, driver_id, from_location, to_location, date, time, departs_at, seats, booked_seats, trip_cost_paise, created_at) VALUES (?, 'u1', 'HSR Layout', 'MG Road', '2026-12-01', '08:00', 0, ?, ?, 100, 0)",
      )
        .bind(`r${seats}${booked}`, seats, booked)
        .run();
    await expect(insert(3, 4)).rejects.toThrow(/CHECK/);
    await expect(insert(7, 0)).rejects.toThrow(/CHECK/);
    await expect(insert(0, 0)).rejects.toThrow(/CHECK/);
    await expect(insert(3, -1)).rejects.toThrow(/CHECK/);
    await expect(insert(3, 3)).resolves.toBeTruthy();
  });

  it("refuses negative money", async () => {
    await env.DB.prepare("INSERT INTO users (id, email, created_at) VALUES ('u1', 'a@b.c', 0)").run();
    await expect(
      env.DB.prepare(
        "INSERT INTO rides (id, driver_id, from_location, to_location, date, time, departs_at, seats, trip_cost_paise, created_at) VALUES ('r', 'u1', 'HSR Layout', 'MG Road', '2026-12-01', '08:00', 0, 3, -1, 0)",
      ).run(),
    ).rejects.toThrow(/CHECK/);
  });

  it("allows one live request per rider and ride, but a new one after cancelling", async () => {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO users (id, email, created_at) VALUES ('d', 'd@x.y', 0), ('r', 'r@x.y', 0)"),
      env.DB.prepare(
        "INSERT INTO rides (id, driver_id, from_location, to_location, date, time, departs_at, seats, trip_cost_paise, created_at) VALUES ('ride', 'd', 'HSR Layout', 'MG Road', '2026-12-01', '08:00', 0, 3, 100, 0)",
      ),
    ]);
    const req = (id: string, status: string) =>
      env.DB.prepare(
        "INSERT INTO ride_requests (id, ride_id, rider_id, seats, status, created_at) VALUES (?, 'ride', 'r', 1, ?, 0)",
      )
        .bind(id, status)
        .run();
    await req("q1", "pending");
    await expect(req("q2", "pending")).rejects.toThrow(/UNIQUE/);
    await expect(req("q3", "accepted")).rejects.toThrow(/UNIQUE/);
    await env.DB.prepare("UPDATE ride_requests SET status = 'cancelled' WHERE id = 'q1'").run();
    await expect(req("q4", "pending")).resolves.toBeTruthy();
  });
});
