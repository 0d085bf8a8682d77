import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { closeScanners, expectAccessibleLightAndDark } from "../support/axe";
import { newPage, send, signInAs, signOut, signUpAndOnboard } from "../support/e2e";

// Profile photos (issue 18), with JavaScript on and off: a rider's photo reaches the
// driver's Manage Bookings, the driver's photo reaches a co-member's Discover ride card;
// a stranger and a visitor get 404 for the photo URL; a file that is too big or not an
// image is refused with a message and changes nothing.
const fixture = (name: string) => readFileSync(new URL(`../fixtures/photos/${name}`, import.meta.url));
const PHOTO_URL = /^\/avatars\/[\w-]+\/[0-9a-f]{16}$/;

async function uploadOnProfile(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.goto("/dashboard/profile");
  await page.getByLabel("Change Avatar").setInputFiles(file);
  await page.getByRole("button", { name: "Upload photo" }).click();
}

/** The src of the profile page's own avatar (null when it shows initials only). */
async function ownPhotoUrl(page: Page) {
  await page.goto("/dashboard/profile");
  const img = page.locator("#personal ~ div img").first();
  return (await img.count()) ? img.getAttribute("src") : null;
}

async function expectServedTo(page: Page, url: string, status: number) {
  const res = await send(page.request, url, { maxRedirects: 0 });
  expect(res.status(), `${url}`).toBe(status);
  if (status === 200) {
    expect(res.headers()["content-type"]).toBe("image/jpeg");
    expect(res.headers()["cache-control"]).toContain("private");
  }
}

/**
 * The first ride card by `driver` on Discover, following "Next page" as a rider would: the other
 * journeys offer rides that depart sooner than the demo ones and fill the first pages.
 */
async function discoverCardBy(page: Page, driver: string) {
  let href: string | null = "/rides";
  // The demo city (issue 38) offers some 240 rides of its own before the demo users' later ones.
  for (let pages = 0; href && pages < 40; pages++) {
    await page.goto(href);
    const card = page.getByTestId("ride-card").filter({ hasText: driver }).first();
    if (await card.count()) return card;
    href = (await page.getByTestId("next-page").count())
      ? await page.getByTestId("next-page").getAttribute("href")
      : null;
  }
  throw new Error(`no ride card by ${driver} on Discover`);
}

test("a photo uploaded on the profile shows on Manage Bookings and on a Discover ride card, for people who share something", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  // Kavya (HSR member, pending request on Priya's ride) uploads her photo.
  await signInAs(page, "kavya@demo.loopride.in");
  await page.goto("/dashboard/profile");
  // The preview is React's: with JavaScript, choose the file once the page has hydrated (before
  // it, the form works as it does without JavaScript and shows no preview).
  if (testInfo.project.name === "js")
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  await page
    .getByLabel("Change Avatar")
    .setInputFiles({ name: "kavya.png", mimeType: "image/png", buffer: fixture("photo.png") });
  // With JavaScript the chosen photo is previewed before it is sent.
  if (testInfo.project.name === "js")
    await expect(page.locator("#personal ~ div img").first()).toHaveAttribute("src", /^data:image\/png;base64,/);
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByText("Profile photo updated.")).toBeVisible();
  const kavyaUrl = await ownPhotoUrl(page);
  expect(kavyaUrl).toMatch(PHOTO_URL);
  await expect(page.getByRole("button", { name: "Remove photo" })).toBeVisible();
  await signOut(page);

  // Priya, the driver, sees it on Kavya's request card in Manage Bookings, and uploads hers.
  await signInAs(page, "priya@demo.loopride.in");
  await page.goto("/dashboard/rides?tab=manage");
  const kavyaCard = page.getByTestId("request-card").filter({ hasText: "Kavya Nair" }).first();
  await expect(kavyaCard.locator("img")).toHaveAttribute("src", kavyaUrl!);
  await expectServedTo(page, kavyaUrl!, 200);
  await uploadOnProfile(page, { name: "priya.jpg", mimeType: "image/jpeg", buffer: fixture("photo.jpg") });
  await expect(page.getByText("Profile photo updated.")).toBeVisible();
  const priyaUrl = await ownPhotoUrl(page);
  expect(priyaUrl).toMatch(PHOTO_URL);
  await signOut(page);

  // Rahul (HSR member) sees Priya's photo on her ride card in Discover.
  await signInAs(page, "rahul@demo.loopride.in");
  const priyaCard = await discoverCardBy(page, "Priya Sharma");
  await expect(priyaCard.locator("img")).toHaveAttribute("src", priyaUrl!);
  await expectServedTo(page, priyaUrl!, 200);
  await signOut(page);

  // A stranger (new account, no community, no ride; their own browser) and a visitor get
  // 404 for the URL.
  const stranger = await newPage(browser, testInfo.project.name);
  await signUpAndOnboard(stranger, { fullName: "Sanjay Stranger" });
  await expectServedTo(stranger, priyaUrl!, 404);
  await expectServedTo(stranger, kavyaUrl!, 404);
  // Discover still lists Priya's ride for the stranger, with her initials: the refused
  // photo draws nothing over them.
  const strangersView = await discoverCardBy(stranger, "Priya Sharma");
  await expect(strangersView.getByText("PS", { exact: true })).toBeVisible();
  await expect(strangersView.locator("img")).toHaveAttribute("src", priyaUrl!);
  if (testInfo.project.name === "js") {
    await expect
      .poll(() =>
        strangersView.locator("img").evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : -1)),
      )
      .toBe(0);
  }
  await strangersView.screenshot({ path: testInfo.outputPath("stranger-ride-card.png") });
  await stranger.context().close();
  const visitor = await browser.newContext();
  const res = await send(visitor.request, new URL(priyaUrl!, page.url()).toString(), { maxRedirects: 0 });
  expect(res.status()).toBe(404);
  await visitor.close();
});

test("a file that is too big or not an image gets a clear message and changes nothing", async ({ page }) => {
  test.setTimeout(90_000);
  await signInAs(page, "arjun@demo.loopride.in");
  await uploadOnProfile(page, { name: "arjun.webp", mimeType: "image/webp", buffer: fixture("photo.webp") });
  await expect(page.getByText("Profile photo updated.")).toBeVisible();
  const before = await ownPhotoUrl(page);
  expect(before).toMatch(PHOTO_URL);

  await uploadOnProfile(page, {
    name: "holiday.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.concat([fixture("photo.jpg"), Buffer.alloc(6 * 1024 * 1024)]),
  });
  await expect(
    page.getByRole("alert").filter({ hasText: "The photo is larger than 5 MB. Choose a smaller photo." }),
  ).toBeVisible();
  expect(await ownPhotoUrl(page)).toBe(before);

  await uploadOnProfile(page, {
    name: "notes.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from("These are my notes, not a photo.\n".repeat(50)),
  });
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: "That file is not a photo we can read. Choose a JPEG, PNG or WebP image." }),
  ).toBeVisible();
  expect(await ownPhotoUrl(page)).toBe(before);
  await expectServedTo(page, before!, 200);

  // Removing the photo brings the initials back and the old URL stops answering.
  await page.getByRole("button", { name: "Remove photo" }).click();
  await expect(page.getByText("Profile photo removed.")).toBeVisible();
  expect(await ownPhotoUrl(page)).toBeNull();
  await expectServedTo(page, before!, 404);
});

test("the profile page's photo controls are accessible: empty, with a photo, with an error, in light and dark", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUpAndOnboard(page, { fullName: "Lakshmi Prasad" });
  // Each state loaded once and scanned in light and then in dark colours (test/support/axe.ts).
  await page.goto("/dashboard/profile");
  await expectAccessibleLightAndDark(page, "profile without a photo");
  await uploadOnProfile(page, { name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not a photo") });
  await expect(page.getByRole("alert").filter({ hasText: "That file is not a photo we can read." })).toBeVisible();
  await expect(page.getByLabel("Change Avatar")).toHaveAttribute("aria-invalid", "true");
  await expectAccessibleLightAndDark(page, "profile with a photo error");
  await uploadOnProfile(page, { name: "me.jpg", mimeType: "image/jpeg", buffer: fixture("photo.jpg") });
  await expect(page.getByText("Profile photo updated.")).toBeVisible();
  await expectAccessibleLightAndDark(page, "profile with a photo");
  // A failed upload beside the photo there: the alert, the photo and its Remove button together.
  await uploadOnProfile(page, { name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not a photo") });
  await expect(page.getByRole("alert").filter({ hasText: "That file is not a photo we can read." })).toBeVisible();
  await expectAccessibleLightAndDark(page, "profile with a photo and a photo error");
});

test.afterAll(async () => {
  await closeScanners();
});
