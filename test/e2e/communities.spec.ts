import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD, signIn } from "./helpers";

const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test("create a community, request to join, approve, see the member, leave", async ({ page, browser }) => {
  const name = unique("Sarjapur Road Pool");
  // A (Priya) creates the community: a dialog with JS, the /communities/new page without.
  await signIn(page, "priya@demo.loopride.in", DEMO_PASSWORD);
  await page.goto("/communities");
  await page.getByRole("link", { name: "Create Community" }).click();
  await page.getByLabel("Community Name").fill("ab");
  await page.getByLabel("Location").fill("Sarjapur Road, Bengaluru");
  await page.getByLabel("Description").fill("short");
  await page.getByRole("button", { name: "Create Community" }).click();
  await expect(page.getByText("Name must be at least 3 characters")).toBeVisible();
  await expect(page.getByText("Description must be at least 10 characters")).toBeVisible();
  await page.getByLabel("Community Name").fill(name);
  await page.getByLabel("Community Type").selectOption("workplace");
  await page.getByLabel("Description").fill("Colleagues pooling cars along Sarjapur Road every weekday.");
  await page.getByRole("button", { name: "Create Community" }).click();
  await expect(page).toHaveURL(/\/communities\/[a-z0-9]+$/);
  const detailUrl = page.url();
  await expect(page.getByTestId("toast")).toContainText("Community created successfully!");
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByTestId("member-count")).toHaveText("1 member");

  // B (Rahul) finds it by a case-insensitive search and asks to join.
  const context = await browser.newContext({ javaScriptEnabled: test.info().project.name === "js" });
  const b = await context.newPage();
  await signIn(b, "rahul@demo.loopride.in", DEMO_PASSWORD);
  await b.goto("/communities");
  await b.getByLabel("Search communities").fill(name.toUpperCase());
  await b.getByRole("button", { name: "Search" }).click();
  await expect(b).toHaveURL(/q=/);
  await expect(b.getByTestId("community-card")).toHaveCount(1);
  await b.getByRole("button", { name: `Join ${name}` }).click();
  await expect(b.getByTestId("toast")).toContainText(`Your request to join ${name} has been sent. Community moderators will review your request.`);
  await expect(b.getByRole("button", { name: "Request pending" })).toBeDisabled();

  // A approves in the Moderation tab.
  await page.goto(detailUrl);
  await page.getByRole("link", { name: /Moderation/ }).click();
  await expect(page.getByTestId("pending-request")).toHaveCount(1);
  await page.getByRole("button", { name: "Approve Rahul Verma" }).click();
  await expect(page.getByTestId("toast")).toContainText("Request Approved");
  await expect(page.getByText("No pending requests.")).toBeVisible();

  // B sees Leave and appears in Members; leaving drops the count.
  await b.reload();
  await expect(b.getByRole("button", { name: `Leave ${name}` })).toBeVisible();
  await b.getByRole("link", { name }).click();
  await expect(b.getByTestId("member-count")).toHaveText("2 members");
  await expect(b.getByTestId("member").filter({ hasText: "Rahul Verma" })).toBeVisible();
  await b.getByRole("button", { name: `Leave ${name}` }).click();
  await expect(b.getByTestId("toast")).toContainText(`You have left ${name}`);
  await expect(b.getByTestId("member-count")).toHaveText("1 member");
  await expect(b.getByTestId("member").filter({ hasText: "Rahul Verma" })).toHaveCount(0);
  await b.getByRole("link", { name: "Back" }).click();
  await expect(b).toHaveURL(/\/communities$/);
  await context.close();
});

test("a visitor pressing Join is sent to sign in and returns to the list", async ({ page }) => {
  // Searched by name: other journeys add interest communities that push it off page 1.
  await page.goto("/communities?q=Nandi&type=interest");
  await expect(page.getByRole("link", { name: "Weekend Nandi Hills Riders" })).toBeVisible();
  await expect(page.getByRole("link", { name: "HSR Layout Sector 2 Residents" })).toHaveCount(0);
  await page.getByRole("button", { name: "Join Weekend Nandi Hills Riders" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcommunities%3Fq%3DNandi%26type%3Dinterest/);
  await expect(page.getByTestId("toast")).toContainText("Authentication Required");
  await expect(page.getByTestId("toast")).toContainText("Please sign in to join communities.");
  await page.getByLabel("E-mail or mobile number").fill("kavya@demo.loopride.in");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/communities\?q=Nandi&type=interest$/);
  await expect(page.getByRole("link", { name: "Weekend Nandi Hills Riders" })).toBeVisible();
});

test("a missing community shows Community not found with a way back", async ({ page }) => {
  await signIn(page, "sneha@demo.loopride.in", DEMO_PASSWORD);
  await page.goto("/communities/no-such-community");
  await expect(page.getByRole("heading", { name: "Community not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to Communities" }).click();
  await expect(page).toHaveURL(/\/communities$/);
});
