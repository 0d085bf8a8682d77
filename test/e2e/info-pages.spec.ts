import { expect, test, type Page } from "@playwright/test";

async function visit(page: Page, path: string, heading: string) {
  const res = await page.goto(path);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
  await expect(page).toHaveTitle(`${heading} | LoopRide`);
}

async function expectNoDollar(page: Page) {
  await expect(page.locator("body")).not.toContainText("$");
}

test("How It Works shows the four steps, three value cards and a sign-up call to action", async ({ page }) => {
  await visit(page, "/how-it-works", "How It Works");
  for (const step of ["Sign Up", "Join Communities", "Create or Join Rides", "Share & Save"]) {
    await expect(page.getByRole("heading", { name: step, exact: true })).toBeVisible();
  }
  for (const value of ["Save money", "Cut CO2 and traffic", "Meet your community"]) {
    await expect(page.getByRole("heading", { name: value, exact: true })).toBeVisible();
  }
  await page.getByRole("link", { name: "Sign up for free" }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.goto("/how-it-works");
  await expectNoDollar(page);
});

test("Pricing shows the Free and Pro cards in rupees and four FAQs that open without JavaScript", async ({ page }) => {
  await visit(page, "/pricing", "Pricing");
  const free = page.getByRole("region", { name: "Free", exact: true });
  const pro = page.getByRole("region", { name: "Pro", exact: true });
  await expect(free).toContainText("₹0");
  await expect(free).toContainText("forever");
  await expect(free).toContainText("Supported by ads");
  await expect(pro).toContainText("₹49");
  await expect(pro).toContainText("per month");
  await expect(page.getByText("₹49", { exact: true })).toBeVisible();

  const faqs = page.locator("#faqs details");
  await expect(faqs).toHaveCount(4);
  await expect(page.locator("#faqs details > summary")).toHaveCount(4);
  const first = faqs.first();
  await expect(first.getByText("supported by ads")).toBeHidden();
  await first.locator("summary").click();
  await expect(first.getByText("supported by ads")).toBeVisible();
  await expectNoDollar(page);
});

test("Support shows six FAQs, the quick help cards and the contact buttons", async ({ page }) => {
  await visit(page, "/support", "Support");
  await expect(page.locator("#faqs details > summary")).toHaveCount(6);
  const answers = page.locator("#faqs");
  for (const text of [
    "moderators approve join requests",
    "moderation tools",
    "up to 2 hours before departure",
    "split equally among passengers",
    "settled between members",
    "never holds",
  ]) {
    await expect(answers).toContainText(text);
  }

  for (const [title, href] of [
    ["User Guide", "/how-it-works"],
    ["FAQs", "#faqs"],
    ["Getting Started", "/signup"],
  ]) {
    await expect(page.getByRole("heading", { name: title, exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: title })).toHaveAttribute("href", href);
  }

  const contact = page.getByRole("link", { name: "Contact Support" });
  await expect(contact).toHaveAttribute("href", /^mailto:[^?]+@[^?]+\?subject=/);
  await expectNoDollar(page);

  await page.getByRole("link", { name: "User Guide" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("How It Works");

  await page.goto("/support");
  await page.getByRole("link", { name: "Community Guidelines" }).click();
  await expect(page).toHaveURL(/\/community-guidelines$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Community Guidelines");
});

test("Community Guidelines covers punctuality, cancellation, safety, fair costs and reporting", async ({ page }) => {
  await visit(page, "/community-guidelines", "Community Guidelines");
  for (const section of [
    "Be on time",
    "Cancel early, not at the last minute",
    "Respect everyone",
    "Safety first",
    "Carpooling, not a taxi service",
    "Split costs fairly",
    "Reporting problems",
  ]) {
    await expect(page.getByRole("heading", { level: 2, name: section })).toBeVisible();
  }
  await expect(page.locator("main")).toContainText("2 hours before departure");
  await expect(page.locator("main a[href^='mailto:']").first()).toBeVisible();
  await expectNoDollar(page);
});

const LEGAL_PAGES = [
  {
    path: "/privacy-policy",
    heading: "Privacy Policy",
    texts: [
      "phone number",
      "Messages",
      "Ride locations",
      "How long we keep your information",
      "does not provide transport",
    ],
  },
  {
    path: "/terms-of-service",
    heading: "Terms of Service",
    texts: ["does not provide transport", "Payments are settled between members", "₹49"],
  },
  {
    path: "/cookie-policy",
    heading: "Cookie Policy",
    texts: [
      "lr_session",
      "__Host-lr_session",
      "lr_toast",
      "30 days",
      "1 minute",
      "referral",
      "No third-party advertising cookies",
    ],
  },
];

for (const { path, heading, texts } of LEGAL_PAGES) {
  test(`${heading} says when it was last updated`, async ({ page }) => {
    await visit(page, path, heading);
    await expect(page.getByText("Last updated: January 2024", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2 }).first()).toBeVisible();
    for (const text of texts) await expect(page.locator("main")).toContainText(text);
    await expectNoDollar(page);
  });
}

test("the footer's legal links lead to the policy pages", async ({ page }) => {
  await page.goto("/support");
  const footer = page.getByRole("contentinfo");
  for (const name of ["Privacy Policy", "Terms of Service", "Cookie Policy"]) {
    await footer.getByRole("link", { name }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  }
});
