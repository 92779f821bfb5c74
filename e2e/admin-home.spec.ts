import { expect } from "@playwright/test";
import { checkPage, logInAsAdmin, test } from "./support/fixtures";

test("the admin start page leads to semesters, forms, subjects, users, reminders and retention, in the page and in the menu", async ({
  page,
}, testInfo) => {
  await logInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  const sections = page.getByRole("navigation", { name: "Administrasjon" });
  for (const [name, path] of [
    ["Semestre", "/admin/semesters"],
    ["Skjemaer", "/admin/forms"],
    ["Emner", "/admin/subjects"],
    ["Brukere", "/admin/users"],
    ["Påminnelser", "/admin/reminders"],
    ["Oppbevaring og sletting", "/admin/retention"],
  ]) {
    await expect(sections.getByRole("link", { name })).toHaveAttribute("href", path);
    await expect(page.getByRole("navigation", { name: "Hovedmeny" }).getByRole("link", { name })).toHaveAttribute(
      "href",
      path,
    );
  }
  await expect(page.getByRole("link", { name: /SYK2001/ })).toHaveAttribute("href", /^\/admin\/class\/\d+$/);
  // The nightly backups' state (the server's schedule: none yet at first, a warning; then the last good one).
  await expect(page.getByRole("heading", { level: 2, name: "Sikkerhetskopi" })).toBeVisible();
  await checkPage(page, testInfo, "admin-home");
});
