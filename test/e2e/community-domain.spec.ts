import { expect, test } from "@playwright/test";
import { closeScanners, expectAccessible } from "../support/axe";
import { createCommunity, newPage, offerRide, signUpAndOnboard, unique } from "../support/e2e";

test.afterEach(async () => {
  await closeScanners();
});

// Issue 16, item 1: a workplace community joined with a verified work e-mail. The admin sets
// the domain; a member asks for a code, reads it in the development mailbox (DEV_MAILBOX=1 in
// the e2e server), enters it, is a member at once, and carries the badge on the ride they offer
// in the community. Runs with JavaScript on and off.
test("work e-mail domain join: the code from the mailbox makes a verified member whose badge shows on their ride", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const project = test.info().project.name;
  const domain = `infosys-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.test`;
  await signUpAndOnboard(page, { fullName: "Anita Rao" });
  const name = unique("Infosys EC Pool");
  const communityPath = await createCommunity(page, name);

  // The admin chooses the work e-mail rule; a free-mail domain is refused first.
  await page.goto(`${communityPath}?tab=moderation`);
  await page.getByLabel("Work e-mail domain").fill("gmail.com");
  await page.getByRole("button", { name: "Join by work e-mail" }).click();
  await expect(page.getByText("That is a free e-mail provider")).toBeVisible();
  await expectAccessible(page, "community rules with a refused domain");
  await page.goto(`${communityPath}?tab=moderation`);
  await page.getByLabel("Work e-mail domain").fill(domain.toUpperCase());
  await page.getByRole("button", { name: "Join by work e-mail" }).click();
  await expect(page.getByTestId("toast")).toContainText(`People join by verifying an address at @${domain}.`);
  await expect(page.getByTestId("community-rules")).toContainText(`@${domain}`);

  // A colleague asks for a code for their work address.
  const member = await newPage(browser, project);
  await signUpAndOnboard(member, { fullName: "Rahul Verma" });
  await member.goto(communityPath);
  await expect(member.getByRole("button", { name: `Join ${name}` })).toHaveCount(0);
  const workEmail = `rahul.verma@${domain}`;
  await member.getByLabel(`Your work e-mail (@${domain})`).fill(workEmail);
  await member.getByRole("button", { name: "Send code" }).click();
  await expect(member.getByTestId("toast")).toContainText(`We e-mailed a 6-digit code to ${workEmail}`);

  // The code, from the development mailbox.
  await member.goto("/dev/mailbox");
  await member
    .getByRole("listitem")
    .filter({ hasText: `To ${workEmail}` })
    .first()
    .getByRole("link")
    .click();
  await expect(member.getByRole("heading", { level: 1 })).toContainText(`Your LoopRide code for ${name}`);
  const text = (await member.getByRole("region", { name: "Text part" }).textContent()) ?? "";
  const code = text.match(/(?:^|\n)(\d{6})(?:\n|$)/)?.[1];
  expect(code, text).toMatch(/^\d{6}$/);

  // A wrong code counts a try; the right one joins at once.
  await member.goto(communityPath);
  await member.getByLabel(`Code sent to ${workEmail}`).fill(String((Number(code) + 1) % 1_000_000).padStart(6, "0"));
  await member.getByRole("button", { name: "Verify and join" }).click();
  await expect(member.getByTestId("toast")).toContainText("That code is not right. 4 tries left.");
  await expectAccessible(member, "work e-mail code form");
  await member.getByLabel(`Code sent to ${workEmail}`).fill(code!);
  await member.getByRole("button", { name: "Verify and join" }).click();
  await expect(member.getByTestId("toast")).toContainText(`You verified your @${domain} address and joined ${name}.`);
  await expect(member.getByTestId("work-email")).toContainText(`You verified ${workEmail}`);
  await expect(member.getByTestId("member-count")).toContainText("2");

  // The member offers a ride in the community: the badge is on it, for the admin too.
  const rideId = await offerRide(member, { from: "HSR Layout", to: "Koramangala", community: name });
  await expect(member.getByRole("region", { name: "Driver" }).getByTestId("verified-badge")).toContainText(
    `Verified ${domain}`,
  );
  await page.goto(`/rides/${rideId}`);
  await expect(page.getByRole("region", { name: "Driver" }).getByTestId("verified-badge")).toContainText(
    `Verified ${domain}`,
  );
  // The address stays private to its owner.
  await page.goto(communityPath);
  await expect(page.getByText("Rahul Verma")).toBeVisible();
  await expect(page.getByText(workEmail)).toHaveCount(0);
});
