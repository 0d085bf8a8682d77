import { expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "carpool-bengaluru";

export function uniqueEmail(prefix = "rider") {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export function uniquePhone() {
  return `9${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
}

/** Signs up a new user through the UI and completes onboarding. Works with JS on and off. */
export async function signUpAndOnboard(
  page: Page,
  { fullName = "Test Commuter", email = uniqueEmail(), password = "green-commute-2026", car = "petrol" as "petrol" | "diesel" | "hybrid" | "electric" | null, referralCode = "" } = {},
) {
  await page.goto("/signup");
  await page.getByLabel("Full name").fill(fullName);
  await page.getByLabel("E-mail or mobile number").fill(email);
  await page.getByLabel("Password").fill(password);
  if (referralCode) await page.getByLabel("Referral code (optional)").fill(referralCode);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await expect(page).toHaveURL(/\/onboarding/);
  await page.getByLabel("Mobile number").fill(uniquePhone());
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Step 2 of 4")).toBeVisible();
  if (car) {
    await page.getByLabel("Yes, I have a car").check();
    await page.getByLabel("Car type (if you have a car)").selectOption(car);
  } else {
    await page.getByLabel("No, I don't").check();
  }
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Step 3 of 4")).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Step 4 of 4")).toBeVisible();
  await page.getByRole("button", { name: "Complete Setup" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return { email, password, fullName };
}

export async function signIn(page: Page, identifier: string, password = DEMO_PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("E-mail or mobile number").fill(identifier);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

export async function signOut(page: Page) {
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "Sign Out" }).first().click();
  await expect(page).toHaveURL(/\/$/);
}
