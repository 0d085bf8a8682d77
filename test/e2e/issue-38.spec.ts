import { expect, test } from "@playwright/test";
import { signUpAndOnboard } from "../support/e2e";

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
