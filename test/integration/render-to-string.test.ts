import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "../support/env";
import type { AppLoadContext, EntryContext, ServerBuild } from "@remix-run/cloudflare";
import { createRequestHandler } from "@remix-run/cloudflare";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
// @ts-ignore The Remix server build exists only after `npm run build`.
import * as build from "../../build/server";
import { checkedEnv } from "~/utils/env.server";
import { lowPriorityModules } from "~/utils/script-priority.server";
import {
  addMember,
  createCommunity,
  createCommutePattern,
  createMessage,
  createRide,
  createRideRequest,
} from "../../db/factories";
import { BASE, db, get, signedInUser } from "../support/worker";

// ADR 0047: pages are rendered to a string once their data is read, not by React's streaming
// render. Every main page must come out byte for byte as the streaming render gives it, and
// nothing may suspend in the string render (a read left to a Suspense fallback would ship the
// fallback, and hydration would have to repair it).

// The visitor's landing page is sent without JavaScript (app/components/page-scripts.tsx).
const scriptless = (path: string, cookie?: string) => path === "/" && !cookie;

type Render = (request: Request, context: EntryContext, load: AppLoadContext) => Promise<unknown>;
// The build bundles its own React, so both renders are the build's entry module's own.
const entry = (build as unknown as ServerBuild).entry.module as unknown as {
  renderWhole: (...a: Parameters<Render>) => Promise<{ html: string; suspended: boolean }>;
  renderStreamed: (...a: Parameters<Render>) => Promise<{ body: ReadableStream; failed: boolean }>;
};

const NONCE = "render-test-nonce";
let suspendedOn: string[] = [];

/** A request handler over the same build whose document entry is `render`. */
function handlerWith(render: (...a: Parameters<Render>) => Promise<BodyInit>) {
  const withEntry = {
    ...(build as unknown as ServerBuild),
    entry: {
      module: {
        ...(build as unknown as ServerBuild).entry.module,
        default: async (
          request: Request,
          status: number,
          headers: Headers,
          context: EntryContext,
          load: AppLoadContext,
        ) => new Response(await render(request, context, load), { status, headers }),
      },
    },
  } as ServerBuild;
  return createRequestHandler(withEntry);
}

const streaming = handlerWith(async (request, context, load) => {
  const { body, failed } = await entry.renderStreamed(request, context, load);
  if (failed) throw new Error(`the streaming render failed on ${request.url}`);
  return body;
});
const whole = handlerWith(async (request, context, load) => {
  const { html, suspended } = await entry.renderWhole(request, context, load);
  if (suspended) suspendedOn.push(new URL(request.url).pathname);
  return html;
});

/** The chat page hands each render a fresh random id for its sender's optimistic messages. */
function steady(html: string) {
  // In the form's hidden input, or only in the loader data when no chat is open.
  const clientId = /clientId(?:" value="|\\",\\")([0-9a-f-]{36})/.exec(html)?.[1];
  return clientId ? html.replaceAll(clientId, "client-id") : html;
}

async function render(handler: ReturnType<typeof handlerWith>, path: string, cookie?: string) {
  const ctx = createExecutionContext();
  const request = new Request(`${BASE}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
  const res = await handler(request, { env: checkedEnv(env), ctx, db: db(), nonce: NONCE });
  const html = steady(await res.text());
  await waitOnExecutionContext(ctx);
  return { status: res.status, html };
}

let pages: { path: string; cookie?: string }[] = [];

beforeAll(async () => {
  const driver = await signedInUser({ fullName: "Asha Rao" });
  const rider = await signedInUser({ fullName: "Ravi Kumar" });
  const community = await createCommunity({ db: db() }, { createdBy: driver.id });
  await addMember({ db: db() }, { communityId: community.id, userId: rider.id });
  const ride = await createRide({ db: db() }, { driverId: driver.id, communityId: community.id });
  const open = await createRide({ db: db() }, { driverId: driver.id });
  const request = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, status: "accepted" });
  await createRideRequest({ db: db() }, { rideId: open.id, riderId: rider.id, status: "pending" });
  const commute = await createCommutePattern({ db: db() }, { driverId: driver.id, communityId: community.id });
  const message = await createMessage({ db: db() }, { senderId: rider.id, receiverId: driver.id, content: "See you" });
  const visitor = [
    "/",
    "/login",
    "/signup",
    "/how-it-works",
    "/pricing",
    "/forgot-password",
    "/community-guidelines",
    "/communities",
    "/no-such-page",
  ];
  const signedIn = [
    "/dashboard",
    "/dashboard/rides?tab=manage",
    "/dashboard/rides",
    "/dashboard/my-rides",
    `/dashboard/messages?c=${message.conversationId}`,
    "/dashboard/messages",
    "/dashboard/profile",
    "/dashboard/settings",
    "/rides",
    "/rides?q=Koramangala&maxCost=30",
    "/rides?from=HSR+Layout&to=Whitefield+ITPL&time=08:30&radius=10&window=60",
    `/rides/${ride.id}`,
    `/rides/${open.id}`,
    "/rides/create",
    `/communities/${community.id}`,
    "/communities",
    `/commutes/${commute.id}`,
    "/commutes/new",
    `/booking-confirmation/${request.id}`,
  ];
  pages = [
    ...visitor.map((path) => ({ path })),
    ...signedIn.map((path) => ({ path, cookie: driver.cookie })),
    // The rider's side: booking a ride, their bookings and the chat.
    { path: `/rides/${open.id}/book`, cookie: rider.cookie },
    { path: `/rides/${ride.id}`, cookie: rider.cookie },
    { path: "/dashboard/rides", cookie: rider.cookie },
    { path: `/dashboard/messages?c=${message.conversationId}`, cookie: rider.cookie },
  ];
});

describe("pages rendered to a string (ADR 0047)", () => {
  // Loaders send "now"; one clock for both renders of a page.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("give the streaming render's HTML byte for byte on every main page, and nothing suspends", async () => {
    suspendedOn = [];
    const seen: string[] = [];
    for (const { path, cookie } of pages) {
      const label = `${path} (${cookie ? "signed in" : "visitor"})`;
      // A first visit may write (opening a chat marks it read): compare the steady page.
      await render(whole, path, cookie);
      const stream = await render(streaming, path, cookie);
      const string = await render(whole, path, cookie);
      expect(string.status, label).toBe(stream.status);
      expect(string.html, label).toBe(stream.html);
      seen.push(`${stream.status} ${label}`);
      if (stream.status >= 300 && stream.status < 400) continue;
      expect(string.html.startsWith("<!DOCTYPE html>"), label).toBe(true);
      // Loader data reaches the browser: the turbo-stream's scripts are in the page, but for
      // the visitor's landing page, which sends no script at all (ADR 0061).
      if (scriptless(path, cookie)) expect(string.html, label).not.toContain("<script");
      else expect(string.html, label).toContain("streamController.close()");
    }
    expect(suspendedOn).toEqual([]);
    // The world above was built right: the pages are pages, not redirects to sign-in.
    expect(
      seen.filter((s) => !s.startsWith("200 ")),
      seen.join("\n"),
    ).toEqual(["404 /no-such-page (visitor)"]);
  });

  it("the real worker serves the string render: same bytes but for its own nonce and script priority", async () => {
    let compared = 0;
    for (const { path, cookie } of pages) {
      await get(path, cookie ? { cookie } : {});
      const res = await get(path, cookie ? { cookie } : {});
      const served = steady(await res.text());
      if (res.status !== 200) continue;
      compared++;
      // Only scripts carry the nonce: a page without them has none to replace.
      const nonce = scriptless(path, cookie) ? NONCE : /nonce="([^"]+)"/.exec(served)?.[1];
      expect(nonce, path).toBeTruthy();
      expect(res.headers.get("Content-Type"), path).toBe("text/html; charset=utf-8");
      const expected = await render(streaming, path, cookie);
      expect(res.status, path).toBe(expected.status);
      // Its module preloads go out at low priority (ADR 0061): one attribute differs.
      expect(served.replaceAll(nonce!, NONCE), path).toBe(lowPriorityModules(expected.html));
    }
    expect(compared).toBe(pages.length - 1);
  });

  it("a boundary left to its fallback is caught, so the check above can fire", async () => {
    // What a deferred read would do to the string render: <StreamTransfer> cannot finish
    // (here its stream fails) and the string render sends the fallback.
    const broken = handlerWith(async (request, context, load) => {
      const lost = new ReadableStream<Uint8Array>({ pull: (c) => c.error(new Error("handoff lost")) });
      const r = await entry.renderWhole(request, { ...context, serverHandoffStream: lost }, load);
      return JSON.stringify({ suspended: r.suspended, doctype: r.html.startsWith("<!DOCTYPE html>") });
    });
    const res = await render(broken, "/pricing");
    expect(JSON.parse(res.html)).toEqual({ suspended: true, doctype: true });
  });

  it("the worker's entry then renders by streaming, which reports the failure as a 500", async () => {
    const handle = (build as unknown as ServerBuild).entry.module.default;
    const fallback = handlerWith(async (request, context, load) => {
      const lost = new ReadableStream<Uint8Array>({ pull: (c) => c.error(new Error("handoff lost")) });
      const res = await handle(request, 200, new Headers(), { ...context, serverHandoffStream: lost }, load);
      return JSON.stringify({ status: res.status, html: (await res.text()).startsWith("<!DOCTYPE html>") });
    });
    const res = await render(fallback, "/pricing");
    expect(JSON.parse(res.html)).toEqual({ status: 500, html: true });
  });
});
