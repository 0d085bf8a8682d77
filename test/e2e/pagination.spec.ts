import { expect, test } from "@playwright/test";
import { addDays, istDate } from "../../app/domain/time";
import { newPage, send, signedInPage, signInAs, signUpAndOnboard } from "../support/e2e";
import { memberListFixture } from "../support/e2e-fixtures";

// Issue 17: a long chat shows its newest messages with an "Older messages" link (a plain
// <a href> with a cursor) that shows the earlier ones, and a community's members page the same
// way ("More members"), with and without JavaScript.
// Each project writes to its own conversation of Kavya's (Rahul and Priya share HSR Layout
// Sector 2 Residents with her); no other journey reads these conversations.

test("a long chat: the newest 30 messages, Older messages shows the earlier ones, Newest messages comes back", async ({
  browser,
  baseURL,
}) => {
  const project = test.info().project.name as "js" | "no-js";
  const tag = `${project}-${Date.now().toString(36)}`;
  const kavya = await signedInPage(browser, "kavya@demo.loopride.in");
  await kavya.goto("/dashboard/messages");
  // The partner's id from the (folded) "Start a new chat" list of community members.
  const link = kavya.locator('[data-testid="contacts"] a', {
    hasText: project === "js" ? "Rahul Verma" : "Priya Sharma",
  });
  const href = await link.getAttribute("href");
  const partnerUserId = new URL(href!, baseURL).searchParams.get("to")!;
  for (let i = 1; i <= 35; i++) {
    const res = await send(kavya.request, `${baseURL}/dashboard/messages?to=${partnerUserId}`, {
      method: "POST",
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

test("a community's member list pages: 20 members, More members shows the rest", async ({ browser }) => {
  // The community and its 25 members were made before any journey ran (fixtures.setup.ts):
  // a second process writing the database while the server answers other journeys makes
  // those requests fail with SQLITE_BUSY.
  const { email, password, path } = memberListFixture(test.info().project.name);
  const page = await newPage(browser, test.info().project.name);
  await signInAs(page, email, password);
  await page.goto(path);
  const members = page.getByTestId("member");
  await expect(members).toHaveCount(20);
  await expect(members.first()).toContainText("Cyclist 01");
  await expect(members.last()).toContainText("Cyclist 20");
  await page.getByRole("link", { name: "More members" }).click();
  await expect(page).toHaveURL(/\?after=\d+\./);
  await expect(members).toHaveCount(6);
  await expect(members.first()).toContainText("Cyclist 21");
  await expect(members.last()).toContainText("Club Founder");
  await expect(page.getByRole("link", { name: "More members" })).toHaveCount(0);
  await page.context().close();
});

test("Discover pages: Next page shows the rest of a search, Previous page comes back to the first 20", async ({
  browser,
  baseURL,
}) => {
  // 25 rides from one place on a day of this project's own, so no other journey's ride joins the list.
  const project = test.info().project.name;
  const date = addDays(istDate(), project === "js" ? 24 : 25);
  const driver = await newPage(browser, project);
  await signUpAndOnboard(driver, { fullName: "Pooja Paging", car: "petrol" });
  for (let i = 0; i < 25; i++) {
    const time = `${String(6 + Math.floor(i / 4)).padStart(2, "0")}:${String((i % 4) * 15).padStart(2, "0")}`;
    const res = await send(driver.request, `${baseURL}/rides/create`, {
      method: "POST",
      form: {
        intent: "create",
        fromLocation: "Hebbal",
        toLocation: "Whitefield ITPL",
        date,
        time,
        seats: "3",
        tripCost: "300",
        notes: "",
        communityId: "",
      },
      headers: { Origin: baseURL!, "Sec-Fetch-Site": "same-origin" },
      maxRedirects: 0,
    });
    expect(res.status(), `ride ${i + 1}: ${(await res.text()).slice(0, 200)}`).toBe(302);
  }
  const rider = await newPage(browser, project);
  await signUpAndOnboard(rider, { fullName: "Ravi Paging", car: null });
  await rider.goto(`/rides?q=Hebbal&date=${date}`);
  await expect(rider.getByTestId("rides-found")).toHaveText("20+ rides found");
  await expect(rider.getByText("6:00 AM").first()).toBeVisible();
  await expect(rider.getByTestId("previous-page")).toHaveCount(0);

  await rider.getByTestId("next-page").click();
  await expect(rider).toHaveURL(/page=2&after=\d+\./);
  await expect(rider.getByTestId("rides-found")).toHaveText("25 rides found");
  await expect(rider.getByText("12:00 PM").first()).toBeVisible();
  await expect(rider.getByText("6:00 AM")).toHaveCount(0);
  await expect(rider.getByTestId("next-page")).toHaveCount(0);

  // Previous page to page 1 is the list itself (deeper pages carry the first ride shown, before=).
  await rider.getByTestId("previous-page").click();
  await expect(rider).toHaveURL(new RegExp(`/rides\\?q=Hebbal&date=${date}$`));
  await expect(rider.getByTestId("rides-found")).toHaveText("20+ rides found");
  await expect(rider.getByText("6:00 AM").first()).toBeVisible();
  await expect(rider.getByText("12:00 PM")).toHaveCount(0);
  // Page 1, with no Previous page.
  await expect(rider.getByTestId("previous-page")).toHaveCount(0);
  await expect(rider.getByTestId("next-page")).toHaveCount(1);
  await driver.context().close();
  await rider.context().close();
});
