import { type MockInstance, vi } from "vitest";

// Google's token and userinfo endpoints, faked at the worker's outbound fetch (the tests call
// the worker in this isolate). Each answers once, as a sign-in asks each once; any other
// outbound request fails, so a test never reaches the network.
let spy: MockInstance<typeof fetch> | undefined;

export function fakeGoogle(profile: Record<string, unknown>) {
  stopFakeGoogle();
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
  const answers = new Map<string, () => Response>([
    [
      "POST https://oauth2.googleapis.com/token",
      () => json({ access_token: "at", expires_in: 3600, token_type: "Bearer", scope: "openid", id_token: "x" }),
    ],
    ["GET https://www.googleapis.com/oauth2/v3/userinfo", () => json(profile)],
  ]);
  spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const key = `${req.method} ${url.origin}${url.pathname}`;
    const answer = answers.get(key);
    if (!answer) throw new Error(`unexpected outbound request in a test: ${key}`);
    answers.delete(key);
    return answer();
  });
}

export function stopFakeGoogle() {
  spy?.mockRestore();
  spy = undefined;
}
