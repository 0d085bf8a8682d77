import { SELF } from "cloudflare:test";
import { BASE } from "./worker";

/** Opens a WebSocket through the real worker (session cookie + same Origin) and records its frames. */
export async function openSocket(path: string, cookie: string) {
  const res = await SELF.fetch(`${BASE}${path}`, { headers: { Upgrade: "websocket", Cookie: cookie, Origin: BASE } });
  if (res.status !== 101 || !res.webSocket) throw new Error(`socket ${path} refused: ${res.status}`);
  const ws = res.webSocket;
  ws.accept();
  const frames: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  ws.addEventListener("message", (e) => {
    frames.push(JSON.parse(typeof e.data === "string" ? e.data : "{}"));
    for (const w of waiters.splice(0)) w();
  });
  return {
    ws,
    frames,
    /** Resolves with the first recorded frame matching `pred` (already received or within `ms`). */
    async waitFor(pred: (f: Record<string, unknown>) => boolean, ms = 3000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const hit = frames.find(pred);
        if (hit) return hit;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching frame within ${ms}ms; got ${JSON.stringify(frames)}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    close() {
      try {
        ws.close(1000, "done");
      } catch {
        // already closed
      }
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
