import { expect, type Locator, type Page } from "@playwright/test";

// Keyboard-only helpers: they move focus with Tab / Shift+Tab and act with typed keys,
// Space and Enter. No clicks, no fill(): what a keyboard user can do, nothing more.

/** What the focused element looks like: enough to tell a visible focus indicator from none. */
async function focusStyle(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const s = getComputedStyle(el);
    return {
      tag: el.tagName.toLowerCase(),
      name: el.getAttribute("aria-label") ?? el.getAttribute("name") ?? el.textContent?.trim().slice(0, 40) ?? "",
      outlineStyle: s.outlineStyle,
      outlineWidth: parseFloat(s.outlineWidth) || 0,
      boxShadow: s.boxShadow,
      focusVisible: el.matches(":focus-visible"),
    };
  });
}

/** The focused element shows a focus indicator: a real outline or a box-shadow ring. */
export async function expectFocusVisible(page: Page) {
  const s = await focusStyle(page);
  expect(s, "something has keyboard focus").not.toBeNull();
  const visible =
    (s!.outlineStyle !== "none" && s!.outlineWidth > 0) || (s!.boxShadow !== "none" && s!.boxShadow !== "");
  expect(
    visible,
    `focused <${s!.tag}> "${s!.name}" has no visible focus indicator (outline ${s!.outlineStyle} ${s!.outlineWidth}px, box-shadow ${s!.boxShadow})`,
  ).toBe(true);
  expect(s!.focusVisible, `focused <${s!.tag}> "${s!.name}" matches :focus-visible`).toBe(true);
}

/** Presses Tab (or Shift+Tab) until `target` has focus; fails if it is not reachable within `max` presses. */
export async function tabTo(page: Page, target: Locator, { max = 60, back = false } = {}) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    if (await target.evaluate((el) => el === document.activeElement)) {
      await expectFocusVisible(page);
      return i + 1;
    }
  }
  throw new Error(`${target} is not reachable with ${back ? "Shift+Tab" : "Tab"} within ${max} presses`);
}

/** One Tab (or Shift+Tab) per control: focus must visit them in exactly this order, each visibly focused. */
export async function expectTabOrder(page: Page, controls: Locator[], { back = false } = {}) {
  for (const control of controls) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    await expect(control).toBeFocused();
    await expectFocusVisible(page);
  }
}

/** Types into the focused field. */
export async function typeHere(page: Page, field: Locator, text: string) {
  await expect(field).toBeFocused();
  await page.keyboard.type(text);
}

/** Picks an option of the focused (closed) <select> with the arrow keys, as a keyboard user would. */
export async function arrowToOption(page: Page, select: Locator, label: string | RegExp, max = 40) {
  await expect(select).toBeFocused();
  const selected = () => select.evaluate((el) => (el as unknown as HTMLSelectElement).selectedOptions[0]?.label ?? "");
  const matches = (text: string) => (typeof label === "string" ? text === label : label.test(text));
  for (let i = 0; i < max && !matches(await selected()); i++) await page.keyboard.press("ArrowDown");
  expect(await selected()).toMatch(
    typeof label === "string" ? new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) : label,
  );
}
