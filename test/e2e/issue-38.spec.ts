import { expect, test } from "@playwright/test";
import { signOut, signUpAndOnboard, uniqueEmail, uniquePhone } from "../support/e2e";

// Issue 38, defect 1: with JavaScript the profile wizard kept one form state across its steps,
// so Next from step 3 showed step 4's selects blank and Finish saved the defaults over the
// member's preferences. Without JavaScript every step is a page of its own; both must keep them.
test("profile completion keeps the saved ride preferences through Next from step 3 and Finish", async ({ page }) => {
  await signUpAndOnboard(page, { fullName: "Meera Quiet" });
  await page.goto("/profile-completion?step=4");
  await page.getByLabel("Music").selectOption("quiet");
  await page.getByLabel("Conversation").selectOption("talkative");
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/profile-completion?step=3");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=4/);
  await expect(page.getByLabel("Music")).toHaveValue("quiet");
  await expect(page.getByLabel("Conversation")).toHaveValue("talkative");
  await expect(page.getByLabel("Co-passenger gender preference")).toHaveValue("any");
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/profile-completion?step=4");
  await expect(page.getByLabel("Music")).toHaveValue("quiet");
  await expect(page.getByLabel("Conversation")).toHaveValue("talkative");
});

// Issue 38, defect 2: with JavaScript "Remove code" cleared the cookie but left the invite's
// code in the field, and signing up applied it.
test("sign-up from an invite link: Remove code empties the field and nothing is applied", async ({ page, browser }) => {
  await signUpAndOnboard(page, { fullName: "Inviting Iyer" });
  await page.goto("/dashboard/profile");
  const code = (await page.getByTestId("referral-code").textContent())!.trim();
  await signOut(page);

  const context = await browser.newContext({
    javaScriptEnabled: test.info().project.name === "js",
    extraHTTPHeaders: { "CF-Connecting-IP": "203.0.113.78" },
  });
  const friend = await context.newPage();
  await friend.goto(`/signup?ref=${code}`);
  const field = friend.getByLabel("Referral code (optional)");
  await expect(field).toHaveValue(code);
  await friend.getByRole("link", { name: "Remove code" }).click();
  await expect(friend.getByRole("link", { name: "Remove code" })).toHaveCount(0);
  await expect(field).toHaveValue("");
  await expect(field).not.toHaveAttribute("readonly", "");
  await friend.getByLabel("Full name").fill("Uninvited Usha");
  await friend.getByLabel("E-mail or mobile number").fill(uniqueEmail("noref"));
  await friend.getByLabel("Password").fill("masala-dosa-77");
  await friend.getByRole("button", { name: "Sign up", exact: true }).click();
  await expect(friend).toHaveURL(/\/onboarding/);
  await friend.getByLabel("Mobile number").fill(uniquePhone());
  await friend.getByRole("button", { name: "Next" }).click();
  await friend.getByLabel("No, I don't").check();
  await friend.getByRole("button", { name: "Next" }).click();
  await expect(friend.getByText("Step 3 of 4")).toBeVisible();
  await expect(friend.getByText("already been applied")).toHaveCount(0);
  await context.close();
});
