// Issue 19, finding 12: public pages promise only what exists. Nobody can remove a member
// from a community yet (moderators approve or reject join requests), so no page says so.
import { describe, expect, it } from "vitest";
import { get } from "../support/worker";

describe("public pages say only what the product does", () => {
  for (const path of ["/community-guidelines", "/terms-of-service"]) {
    it(`${path} does not promise that moderators remove members`, async () => {
      const res = await get(path);
      expect(res.status).toBe(200);
      const text = (await res.text()).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
      expect(text).not.toMatch(/remove (members|you)\b/i);
      expect(text).toMatch(/moderators decide who may join/i);
    });
  }
});
