import { expect, test, type Browser, type Page } from "@playwright/test";
import { signInAs } from "../support/e2e";

// Both projects (JS on and off) share one database and run at the same time, so each
// project uses its own pair of demo users and every message text is unique.
const demo = (name: string) => `${name}@demo.loopride.in`;
// Both tests of a project share demo users (Arjun in the no-JS casts) and count unread
// badges, so within a project they run one after the other.
test.describe.configure({ mode: "serial" });

const RIDER_TO_DRIVER = {
  js: { a: demo("rahul"), aName: "Rahul Verma", b: demo("priya"), bName: "Priya Sharma" },
  // Sneha asked for a seat on Priya's ride; no other no-JS journey adds ride requests for her, so
  // it stays among the 4 newest her dashboard lists (Vikram, used before, rides in other journeys).
  "no-js": { a: demo("sneha"), aName: "Sneha Kulkarni", b: demo("priya"), bName: "Priya Sharma" },
} as const;
const NEIGHBOURS = {
  js: { a: demo("irfan"), aName: "Mohammed Irfan", b: demo("ananya"), bName: "Ananya Iyer" },
  "no-js": { a: demo("sneha"), aName: "Sneha Kulkarni", b: demo("arjun"), bName: "Arjun Rao" },
} as const;

const unique = (text: string) => `${text} #${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function userPage(browser: Browser, email: string) {
  const context = await browser.newContext({ javaScriptEnabled: test.info().project.name === "js" });
  const page = await context.newPage();
  await signInAs(page, email);
  return { context, page };
}

async function send(page: Page, text: string) {
  await page.getByLabel("Message", { exact: true }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page).toHaveURL(/\/dashboard\/messages\?c=/);
  await expect(page.getByTestId("chat-messages").getByText(text)).toBeVisible();
}

const badgeCount = async (page: Page, id: string) =>
  Number((await page.getByTestId(id).first().getAttribute("data-count")) ?? "0");

test("a rider contacts the driver from the dashboard; the driver sees it unread and replies; the rider sees the reply", async ({
  browser,
}) => {
  const p = RIDER_TO_DRIVER[test.info().project.name as "js" | "no-js"];
  const a = await userPage(browser, p.a);
  await a.page.goto("/dashboard");
  await a.page
    .getByRole("link", { name: `Message ${p.bName}` })
    .first()
    .click();
  await expect(a.page).toHaveURL(/\/dashboard\/messages\?(to|c)=/);
  await expect(a.page.getByTestId("chat-partner")).toHaveText(p.bName);
  const question = unique("Is there room for a laptop bag?");
  await send(a.page, question);
  await expect(a.page.getByTestId("message").filter({ hasText: question })).toHaveAttribute("data-own", "true");

  const b = await userPage(browser, p.b);
  await b.page.goto("/dashboard/messages");
  await expect(b.page.getByRole("heading", { name: "Messages" })).toBeVisible();
  await expect(b.page.getByText("Select a chat to start messaging")).toBeVisible();
  const conversation = b.page.getByTestId("conversation").filter({ hasText: p.aName });
  await expect(conversation).toContainText(question);
  await expect(conversation.getByTestId("conversation-unread")).toBeVisible();
  await conversation.click();
  await expect(b.page.getByTestId("message").filter({ hasText: question })).toHaveAttribute("data-own", "false");
  await expect(
    b.page.getByTestId("conversation").filter({ hasText: p.aName }).getByTestId("conversation-unread"),
  ).toHaveCount(0);
  const reply = unique("Yes, plenty of space in the boot.");
  await send(b.page, reply);

  await a.page.reload();
  await expect(a.page.getByTestId("message").filter({ hasText: reply })).toHaveAttribute("data-own", "false");
  // Over 2,000 characters is refused with a clear message, and nothing is sent.
  await a.page.getByLabel("Message", { exact: true }).fill("x".repeat(2001));
  await a.page.getByRole("button", { name: "Send" }).click();
  await expect(a.page.getByText("Message must be at most 2,000 characters")).toBeVisible();
  await a.context.close();
  await b.context.close();
});

test("a chat opened from a plain link is marked read: by itself with JavaScript, with one button without (reading never writes)", async ({
  browser,
}) => {
  const js = test.info().project.name === "js";
  const p = RIDER_TO_DRIVER[js ? "js" : "no-js"];
  const a = await userPage(browser, p.a);
  // Through the booking (My Rides lists them all): the dashboard shows only the rider's 4 newest
  // requests, and other journeys on the shared demo data add newer ones for this rider.
  await a.page.goto("/dashboard/my-rides?tab=booked");
  await a.page
    .getByTestId("booked-ride")
    .filter({ hasText: p.bName })
    .first()
    .getByRole("link", { name: "View booking" })
    .click();
  await a.page.getByRole("link", { name: "Contact Driver" }).click();
  const text = unique("Opened from a link");
  await send(a.page, text);
  const chat = new URL(a.page.url());

  const b = await userPage(browser, p.b);
  // The address a notification links to: a GET, which must not mark anything read by itself.
  await b.page.goto(chat.pathname + chat.search);
  await expect(b.page.getByTestId("message").filter({ hasText: text })).toBeVisible();
  const entry = b.page.getByTestId("conversation").filter({ hasText: p.aName });
  if (!js) {
    await expect(entry.getByTestId("conversation-unread")).toBeVisible();
    await b.page.getByRole("button", { name: "Mark as read" }).click();
    await expect(b.page).toHaveURL(chat.pathname + chat.search);
  }
  await expect(entry.getByTestId("conversation-unread")).toHaveCount(0);
  await expect(b.page.getByRole("button", { name: "Mark as read" })).toHaveCount(0);
  await a.context.close();
  await b.context.close();
});

test("live: a message appears in the partner's open chat within a second, and their badges rise without a reload", async ({
  browser,
}) => {
  const js = test.info().project.name === "js";
  const p = NEIGHBOURS[js ? "js" : "no-js"];
  const a = await userPage(browser, p.a);
  await a.page.goto("/dashboard/messages");
  const contact = a.page.getByTestId("contacts").getByRole("link", { name: p.bName });
  if (!(await contact.isVisible())) await a.page.getByText("Start a new chat").click();
  await contact.click();
  await send(a.page, unique("Hello neighbour"));

  const b = await userPage(browser, p.b);
  await b.page.goto("/dashboard/messages");
  await b.page.getByTestId("conversation").filter({ hasText: p.aName }).click();
  await expect(b.page.getByTestId("chat-partner")).toHaveText(p.aName);
  if (js) {
    await expect(b.page.getByTestId("live-room")).toHaveAttribute("data-connected", "true");
    await b.page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  }

  // 1. A new message reaches the open chat.
  const live = unique("Leaving in five minutes");
  await a.page.getByLabel("Message", { exact: true }).fill(live);
  const posted = a.page.waitForResponse((r) => r.request().method() === "POST");
  // With JavaScript the open chat marks the live message read (a fetcher POST). Leaving before
  // that lands would count the message unread on Overview, then not, as the POST commits.
  const markedRead = js
    ? b.page.waitForResponse(
        (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/dashboard/messages"),
      )
    : null;
  await a.page.getByRole("button", { name: "Send" }).click();
  await posted;
  if (js) {
    await expect(b.page.getByTestId("message").filter({ hasText: live })).toBeVisible({ timeout: 1000 });
    expect((await markedRead)!.ok()).toBe(true);
    expect(await b.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  } else {
    await b.page.reload();
    await expect(b.page.getByTestId("message").filter({ hasText: live })).toBeVisible();
  }

  // 2. Elsewhere in the dashboard, the unread badges rise.
  await b.page.getByRole("link", { name: "Overview" }).first().click();
  await expect(b.page).toHaveURL(/\/dashboard$/);
  const before = await badgeCount(b.page, "badge-messages");
  if (js) {
    await expect(b.page.getByTestId("live-user")).toHaveAttribute("data-connected", "true");
    await b.page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  }
  const another = unique("Also, bring an umbrella");
  await send(a.page, another);
  if (!js) await b.page.reload();
  await expect(b.page.getByTestId("badge-messages").first()).toHaveAttribute("data-count", String(before + 1));
  await expect(b.page.getByTestId("badge-notifications")).toBeVisible();
  await expect(b.page.locator("#notifications").getByText(`New message from ${p.aName}`).first()).toBeVisible();
  if (js) expect(await b.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  await a.context.close();
  await b.context.close();
});
