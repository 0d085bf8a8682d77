import { expect, test } from "@playwright/test";
import { createCommunity, DEMO_PASSWORD, newPage, offerRide, signInAs, signUpAndOnboard, unique } from "../support/e2e";

test("create a community, request to join, approve, see the member, leave", async ({ page, browser }) => {
  const name = unique("Sarjapur Road Pool");
  // A (Priya) creates the community: a dialog with JS, the /communities/new page without.
  await signInAs(page, "priya@demo.loopride.in");
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
  await signInAs(b, "rahul@demo.loopride.in");
  await b.goto("/communities");
  await b.getByLabel("Search communities").fill(name.toUpperCase());
  await b.getByRole("button", { name: "Search" }).click();
  await expect(b).toHaveURL(/q=/);
  await expect(b.getByTestId("community-card")).toHaveCount(1);
  await b.getByRole("button", { name: `Join ${name}` }).click();
  await expect(b.getByTestId("toast")).toContainText(
    `Your request to join ${name} has been sent. Community moderators will review your request.`,
  );
  await expect(b.getByRole("button", { name: "Request pending" })).toBeDisabled();
  // A closed community: while the request is pending, B sees its card but not who is in it.
  await b.getByRole("link", { name }).click();
  await expect(b.getByTestId("member-count")).toHaveText("1 member");
  await expect(b.getByTestId("members-hidden")).toContainText("visible to approved members of this community only");
  await expect(b.getByTestId("member")).toHaveCount(0);
  await expect(b.getByText("Priya Sharma")).toHaveCount(0);

  // A approves in the Moderation tab.
  await page.goto(detailUrl);
  await page.getByRole("link", { name: /Moderation/ }).click();
  await expect(page.getByTestId("pending-request")).toHaveCount(1);
  await page.getByRole("button", { name: "Approve Rahul Verma" }).click();
  await expect(page.getByTestId("toast")).toContainText("Request Approved");
  await expect(page.getByText("No pending requests.")).toBeVisible();

  // B sees Leave and appears in Members; leaving drops the count.
  await b.goto("/communities");
  await b.getByLabel("Search communities").fill(name);
  await b.getByRole("button", { name: "Search" }).click();
  // The search must have landed before the link is followed (with JS a late search navigation
  // would otherwise replace the community page with the list).
  await expect(b).toHaveURL(/q=/);
  await expect(b.getByRole("button", { name: `Leave ${name}` })).toBeVisible();
  await b.getByRole("link", { name }).click();
  await expect(b).toHaveURL(detailUrl);
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
  await signInAs(page, "sneha@demo.loopride.in");
  await page.goto("/communities/no-such-community");
  await expect(page.getByRole("heading", { name: "Community not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to Communities" }).click();
  await expect(page).toHaveURL(/\/communities$/);
});

// Finding 9 (issue 19): a ride shared with a community is for its approved members. An
// outsider neither finds it nor opens it (Ride Not Found) until a moderator lets them in.
test("a ride shared with a community: an outsider cannot find or open it, joins, is approved, then finds and books it", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const project = test.info().project.name;
  await signUpAndOnboard(page, { fullName: "Lakshmi Rao", car: "petrol" });
  const name = unique("Bellandur Lake Residents");
  const communityPath = await createCommunity(page, name);
  const rideId = await offerRide(page, { from: "HSR Layout", to: "Bagmane Tech Park", community: name });

  const outsider = await newPage(browser, project);
  await signUpAndOnboard(outsider, { fullName: "Naveen Kumar", car: null });
  await outsider.goto("/rides?community=1");
  await expect(outsider.getByText("No rides found")).toBeVisible();
  await expect(outsider.locator(`a[href="/rides/${rideId}"]`)).toHaveCount(0);
  await outsider.goto(`/rides/${rideId}`);
  await expect(outsider.getByRole("heading", { name: "Ride Not Found" })).toBeVisible();
  await expect(outsider.getByText("HSR Layout")).toHaveCount(0);

  // The community page shows the card and how to join, not who is in it.
  await outsider.goto(communityPath);
  await expect(outsider.getByTestId("members-hidden")).toBeVisible();
  await expect(outsider.getByText("Lakshmi Rao")).toHaveCount(0);
  await outsider.getByRole("button", { name: `Join ${name}` }).click();
  await expect(outsider.getByTestId("toast")).toContainText(`Your request to join ${name} has been sent.`);
  await outsider.goto(`/rides/${rideId}`);
  await expect(outsider.getByRole("heading", { name: "Ride Not Found" })).toBeVisible();

  await page.goto(`${communityPath}?tab=moderation`);
  await page.getByRole("button", { name: "Approve Naveen Kumar" }).click();
  await expect(page.getByTestId("toast")).toContainText("Request Approved");

  // A member now: the ride is among the community rides, and bookable.
  await outsider.goto("/rides?community=1");
  const card = outsider.getByTestId("ride-card").filter({ has: outsider.locator(`a[href="/rides/${rideId}"]`) });
  await expect(card).toBeVisible();
  await card.getByRole("link", { name: "Book Now" }).click();
  await expect(outsider).toHaveURL(new RegExp(`/rides/${rideId}/book$`));
  await outsider.getByRole("button", { name: "Request Seats" }).click();
  await expect(outsider).toHaveURL(/\/booking-confirmation\/[a-z0-9]+$/);
  await expect(outsider.getByTestId("toast")).toContainText("Ride request submitted!");
  await outsider.goto(communityPath);
  await expect(outsider.getByTestId("member").filter({ hasText: "Lakshmi Rao" })).toBeVisible();
});
