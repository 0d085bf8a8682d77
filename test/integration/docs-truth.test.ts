// Issue 19, finding 12: public pages promise only what exists. Moderators decide who may
// join; since issue 16 they can also suspend and remove members, and the pages say so.
import { describe, expect, it } from "vitest";
import { get } from "../support/worker";

describe("public pages say only what the product does", () => {
  for (const path of ["/community-guidelines", "/terms-of-service"]) {
    it(`${path} says what moderators do: decide who joins, suspend and remove`, async () => {
      const res = await get(path);
      expect(res.status).toBe(200);
      const text = (await res.text()).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
      expect(text).toMatch(/moderators decide who may join/i);
      expect(text).toMatch(/suspend (or remove )?a member/i);
    });
  }
});
