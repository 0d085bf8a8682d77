import { selfFetch } from "./worker-fetch";
import { expect } from "vitest";
import { weekStartOf } from "~/domain/settle-up";
import { addDays, istDate } from "~/domain/time";
import type { Column } from "../security/authz-matrix";
import { BASE } from "./worker";
import { toastOf } from "./rides";
import { changedTables, dbChecksum } from "./db-checksum";
import { cookieOf, type Role, type Scenario } from "./authz-scenario";

/** Fills the matrix's {placeholders} with the scenario's ids. */
export function resolve(template: string, s: Scenario, role: Role): string {
  const ids: Record<string, string> = {
    community: s.community.id,
    otherCommunity: s.otherCommunity.id,
    joinRequest: s.joinRequestId,
    rejectedRequest: s.rejectedRequestId,
    targetMember: s.targetMemberId,
    otherJoin: s.otherJoinId,
    ride: s.ride.id,
    publicRide: s.publicRide.id,
    pastRide: s.pastRide.id,
    acceptedRequest: s.acceptedRequestId,
    pendingRequest: s.pendingRequestId,
    payment: s.paymentId,
    paymentAmount: String(s.paymentAmountPaise),
    pastWeek: weekStartOf(s.pastRide.date),
    driverConversation: s.driverConversationId,
    modConversation: s.modConversationId,
    messageNotification: s.messageNotificationId,
    driver: s.people.driver.id,
    driverPhoto: s.driverPhotoPath,
    acceptedRider: s.people.acceptedRider.id,
    futureDate: addDays(istDate(), 3),
    commute: s.commuteId,
    commuteDay: s.commuteDay,
    commuteRequest: s.commuteRequest,
    savedSearch: s.savedSearchId,
    commuteStart: s.commuteStart,
    commuteWeekday: s.commuteWeekday,
    pendingRider: s.people.pendingRider.id,
    role: role.toLowerCase(),
  };
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    if (!(k in ids)) throw new Error(`unknown placeholder {${k}}`);
    return ids[k];
  });
}

export type Headers = Record<string, string>;

/** A same-origin browser request by default; `headers` replaces the CSRF-relevant ones. */
export function send(
  col: Column,
  s: Scenario,
  role: Role,
  headers: Headers = { Origin: BASE, "Sec-Fetch-Site": "same-origin" },
) {
  const cookie = cookieOf(s, role);
  const url = `${BASE}${resolve(col.path, s, role)}`;
  if (col.method === "GET") {
    return selfFetch(url, {
      redirect: "manual",
      headers: { ...(cookie ? { Cookie: cookie } : {}), "Sec-Fetch-Site": "same-origin" },
    });
  }
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(col.fields ?? {})) body.append(k, resolve(v, s, role));
  return selfFetch(url, {
    method: "POST",
    body,
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Host: new URL(BASE).host,
      ...(cookie ? { Cookie: cookie } : {}),
      ...headers,
    },
  });
}

/**
 * Runs one cell and checks the response and the database against the expected outcome.
 * `before` is the database's snapshot when the caller already has it (the snapshot taken after
 * the cell before, which changed nothing); the snapshot after this cell is returned for the next.
 */
export async function runCell(
  col: Column,
  s: Scenario,
  role: Role,
  outcome: string,
  headers?: Headers,
  before?: Record<string, string>,
) {
  const start = before ?? (await dbChecksum());
  const res = await send(col, s, role, headers);
  await res.arrayBuffer();
  const after = await dbChecksum();
  checkOutcome(res, changedTables(start, after), outcome, `${col.method} ${col.name} as ${role}`);
  return after;
}

export function checkOutcome(res: Response, changed: string[], outcome: string, label: string) {
  const where = res.headers.get("Location") ?? "";
  const status = res.status;
  // A single-fetch .data request answers a redirect with 202 and the target in Location.
  const redirect = (status >= 300 && status < 400) || (status === 202 && where !== "");
  const [kind, to] = outcome.split("->");
  const got = `${label}: got ${status}${where ? ` -> ${where}` : ""}, changed [${changed.join(", ")}]`;
  const expectTo = () => {
    if (to !== undefined) expect(where.startsWith(to), `${got}; expected a redirect to ${to}`).toBe(true);
  };
  switch (kind) {
    case "page":
      expect(status, got).toBe(200);
      expect(changed, `${got}; a page must not write`).toEqual([]);
      return;
    case "done":
    case "noop":
      expect(status >= 200 && status < 400, got).toBe(true);
      if (to === undefined) expect(/^\/(login|onboarding)\b/.test(where), `${got}; expected to be allowed`).toBe(false);
      if (redirect)
        expect(toastOf(res)?.type ?? "success", `${got}; error toast ${JSON.stringify(toastOf(res))}`).not.toBe(
          "error",
        );
      expectTo();
      if (kind === "done") expect(changed.length, `${got}; expected an effect`).toBeGreaterThan(0);
      else expect(changed, got).toEqual([]);
      return;
    case "redirect":
    case "refused":
      expect(redirect, got).toBe(true);
      expectTo();
      if (kind === "refused") expect(toastOf(res)?.type, `${got}; expected an error toast`).toBe("error");
      expect(changed, `${got}; a refused call must change nothing`).toEqual([]);
      return;
    case "login":
    case "onboarding":
      expect(redirect, got).toBe(true);
      expect(where.startsWith(`/${kind}`), got).toBe(true);
      expect(changed, `${got}; a refused call must change nothing`).toEqual([]);
      return;
    default: {
      const code = Number(kind);
      if (!Number.isInteger(code)) throw new Error(`unknown outcome ${outcome}`);
      expect(status, got).toBe(code);
      expect(changed, `${got}; a refused call must change nothing`).toEqual([]);
    }
  }
}
