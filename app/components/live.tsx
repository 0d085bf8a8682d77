import { useFetchers, useNavigation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { HubEvent, RoomEvent } from "../../durable-objects/hub-events";
import { applyBadgeFrame, type Badges } from "./live-badges";
import { showToast } from "./toast";

// Live updates for dashboard pages (JavaScript only; without it the same data arrives on
// the next page load). D1 stays the source of truth: a frame either carries a committed
// message to append at once, badge counts read by the fan-out (shown in place), or tells
// the page to revalidate (re-read D1). After a drop
// the socket reconnects with backoff and revalidates, which fetches whatever was missed.

const MIN_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
const PING_EVERY_MS = 30_000;
/** durable-objects/socket-hub.ts closes a signed-out or expired session's sockets with this code. */
const SESSION_ENDED_CLOSE_CODE = 4001;

type Frame = HubEvent | RoomEvent | { type: "pong" };

function parseFrame(data: unknown): Frame | null {
  if (typeof data !== "string") return null;
  try {
    const v = JSON.parse(data) as unknown;
    return v && typeof v === "object" && typeof (v as { type?: unknown }).type === "string" ? (v as Frame) : null;
  } catch {
    return null;
  }
}

/** How long a busy page may hold off the first connection. */
const IDLE_TIMEOUT_MS = 2_000;

/** Runs `start` when the browser is next idle (at the latest after IDLE_TIMEOUT_MS); returns a cancel. */
function startWhenIdle(start: () => void): () => void {
  // Safari has no requestIdleCallback: a timeout after the current task instead.
  if (typeof window.requestIdleCallback !== "function") {
    const t = setTimeout(start, 0);
    return () => clearTimeout(t);
  }
  const id = window.requestIdleCallback(start, { timeout: IDLE_TIMEOUT_MS });
  return () => window.cancelIdleCallback(id);
}

/**
 * Holds a WebSocket to `path` (same origin) while mounted: reconnects with exponential
 * backoff after a drop and calls `onReconnect` once it is back, so the caller can re-read
 * what it missed. `onFrame` sees every parsed frame.
 */
export function useSocket(path: string | null, onFrame: (f: Frame) => void, onReconnect: () => void) {
  const handlers = useRef({ onFrame, onReconnect });
  handlers.current = { onFrame, onReconnect };
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    if (!path || typeof WebSocket === "undefined") return;
    let ws: WebSocket | null = null;
    let stopped = false;
    let attempt = 0;
    let everOpened = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let ping: ReturnType<typeof setInterval> | undefined;
    const connect = () => {
      if (stopped) return;
      const url = new URL(path, window.location.href);
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      ws = new WebSocket(url);
      ws.addEventListener("open", () => {
        attempt = 0;
        setConnected(true);
        if (everOpened) handlers.current.onReconnect();
        everOpened = true;
        ping = setInterval(
          () => ws?.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: "ping" })),
          PING_EVERY_MS,
        );
      });
      ws.addEventListener("message", (e) => {
        const f = parseFrame(e.data);
        if (f) handlers.current.onFrame(f);
      });
      ws.addEventListener("close", (e) => {
        setConnected(false);
        clearInterval(ping);
        // The server ended this session's sockets (sign-out, expiry): reconnecting would only be refused.
        if (stopped || e.code === SESSION_ENDED_CLOSE_CODE) return;
        const delay = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** attempt++) * (0.75 + Math.random() * 0.5);
        retry = setTimeout(connect, delay);
      });
    };
    // The first connection waits until the page is idle: at hydration the socket's set-up and its
    // "open" re-render would lengthen the long tasks a phone already has (ADR 0061). Anything
    // sent meanwhile is in the page's own loader data.
    const idle = startWhenIdle(connect);
    return () => {
      stopped = true;
      idle();
      clearTimeout(retry);
      clearInterval(ping);
      ws?.close(1000, "leaving");
    };
  }, [path]);
  return connected;
}

/** A revalidate that coalesces bursts of frames into one reload of the page's loaders. */
function useDebouncedRevalidate(delay = 150) {
  const { revalidate } = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  // While a navigation or a fetcher is in flight its own loaders bring fresh data; a
  // revalidation racing them could also consume the flash toast they are about to show.
  const busy = useRef(false);
  busy.current = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  return () => {
    clearTimeout(timer.current);
    const attempt = () => {
      if (busy.current) timer.current = setTimeout(attempt, 200);
      else revalidate();
    };
    timer.current = setTimeout(attempt, delay);
  };
}

/**
 * The signed-in user's live channel (/ws/user), mounted once by the dashboard shell: a badge
 * frame's counts replace the shown ones in place (applyBadgeFrame says when the page must
 * still re-read); a notification frame shows a toast and revalidates (notifications panel,
 * conversation list).
 */
export function LiveUserUpdates() {
  const revalidate = useDebouncedRevalidate();
  // The shell's badges as the loader last read them (what a frame's counts are shown over).
  const over = useRef<Badges | null>(null);
  over.current = useRouteLoaderData<{ badges: Badges | null }>("routes/_app")?.badges ?? null;
  const connected = useSocket(
    "/ws/user",
    (f) => {
      if (f.type === "badges" && (!over.current || applyBadgeFrame(over.current, f))) revalidate();
      if (f.type === "notification") {
        showToast({ title: f.title, description: f.message, type: "info" });
        revalidate();
      }
    },
    revalidate,
  );
  return <span hidden data-testid="live-user" data-connected={connected ? "true" : "false"} />;
}

/** An open chat's live channel (/ws/conversation/{id}): new messages arrive as they are committed. */
export function useConversationLive(conversationId: string | null, onMessage: (m: RoomEvent) => void) {
  const revalidate = useDebouncedRevalidate();
  return useSocket(
    conversationId ? `/ws/conversation/${conversationId}` : null,
    (f) => {
      if (f.type === "message" && f.conversationId === conversationId) onMessage(f);
    },
    revalidate,
  );
}
