import { expect, test } from "@playwright/test";
import { signedInPage } from "../support/e2e";

// Issue 17: a long chat shows its newest messages with an "Older messages" link (a plain
// <a href> with a cursor) that shows the earlier ones, with and without JavaScript.
// Each project writes to its own conversation of Kavya's (Rahul and Priya share HSR Layout
// Sector 2 Residents with her); no other journey reads these conversations.

test("a long chat: the newest 30 messages, Older messages shows the earlier ones, Newest messages comes back", async ({ browser, baseURL }) => {
  const project = test.info().project.name as "js" | "no-js";
  const tag = `${project}-${Date.now().toString(36)}`;
  const kavya = await signedInPage(browser, "kavya@demo.loopride.in");
  await kavya.goto("/dashboard/messages");
  // The partner's id from the (folded) "Start a new chat" list of community members.
  const link = kavya.locator('[data-testid="contacts"] a', { hasText: project === "js" ? "Rahul Verma" : "Priya Sharma" });
  const href = await link.getAttribute("href");
  const partnerUserId = new URL(href!, baseURL).searchParams.get("to")!;
  for (let i = 1; i <= 35; i++) {
    const res = await kavya.request.post(`${baseURL}/dashboard/messages?to=${partnerUserId}`, {
      form: { intent: "send", to: partnerUserId, content: `${tag} message ${i}` },
      headers: { Origin: baseURL!, "Sec-Fetch-Site": "same-origin" },
      maxRedirects: 0,
    });
    expect(res.status(), `message ${i}`).toBe(302);
  }
  await kavya.goto(`/dashboard/messages?to=${partnerUserId}`);
  await expect(kavya).toHaveURL(/\/dashboard\/messages\?c=/);
  const mine = kavya.getByTestId("message").filter({ hasText: tag });
  await expect(mine).toHaveCount(30);
  await expect(mine.last()).toContainText(`${tag} message 35`);
  await expect(mine.first()).toContainText(new RegExp(`${tag} message 6(?!\\d)`));

  await kavya.getByRole("link", { name: "Older messages" }).click();
  await expect(kavya).toHaveURL(/before=\d+\./);
  // The five earliest, oldest first, and nothing repeated from the first page.
  const older = kavya.getByTestId("message").filter({ hasText: tag });
  await expect(older).toHaveCount(5);
  await expect(older.first()).toContainText(new RegExp(`${tag} message 1(?!\\d)`));
  await expect(older.last()).toContainText(new RegExp(`${tag} message 5(?!\\d)`));

  await kavya.getByRole("link", { name: "Newest messages" }).click();
  await expect(kavya.getByTestId("message").filter({ hasText: tag }).last()).toContainText(`${tag} message 35`);
  await kavya.context().close();
});
