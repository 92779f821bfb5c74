import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, type Page } from "@playwright/test";
import { SMTPServer } from "smtp-server";
import { checkPage, logIn, logInAsAdmin, test } from "./support/fixtures";

const flash = (page: Page) => page.getByRole("status").filter({ hasText: /\S/ }).first();

test("a student switches the deadline reminders off in Settings, and on again", async ({ page }, testInfo) => {
  await logIn(page, "student07@example.org");
  await page.goto("/settings");
  const reminders = page.getByRole("region", { name: "E-postpåminnelser" });
  const deadline = reminders.getByRole("checkbox", { name: "Frister for skjemaer jeg ikke har sendt" });
  const signing = reminders.getByRole("checkbox", { name: "Signeringsskjemaer som venter på signaturen min" });
  await expect(deadline).toBeChecked();
  await expect(signing).toBeChecked();
  await expect(reminders.getByRole("checkbox", { name: /Varsler gitt/ })).toHaveCount(0);
  await checkPage(page, testInfo, "settings-reminders");

  await deadline.uncheck();
  await reminders.getByRole("button", { name: "Oppdater påminnelsene" }).click();
  await expect(flash(page)).toContainText("Påminnelsene er lagret.");
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Frister for skjemaer jeg ikke har sendt" })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Signeringsskjemaer som venter på signaturen min" })).toBeChecked();

  await page.getByRole("checkbox", { name: "Frister for skjemaer jeg ikke har sendt" }).check();
  await page.getByRole("button", { name: "Oppdater påminnelsene" }).click();
  await expect(flash(page)).toContainText("Påminnelsene er lagret.");
  await expect(page.getByRole("checkbox", { name: "Frister for skjemaer jeg ikke har sendt" })).toBeChecked();
});

test("the admin sets the day counts; npm run reminders sends each reminder once, listed on the admin page", async ({
  page,
  baseURL,
}, testInfo) => {
  // Two runs of `npm run reminders`, each a Node process that loads the app's build.
  test.setTimeout(180_000);
  await logInAsAdmin(page);
  await page.getByRole("link", { name: "Påminnelser" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Påminnelser" })).toBeVisible();
  await expect(page.getByLabel("Dager før midtveisfristen")).toHaveValue("7");
  await expect(page.getByLabel("Dager før sluttfristen")).toHaveValue("2");
  await checkPage(page, testInfo, "admin-reminders");

  await page.getByLabel("Dager mellom påminnelser om signering").fill("0");
  await page.getByRole("button", { name: "Lagre", exact: true }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Det er et problem" });
  await expect(
    summary.getByRole("link", { name: /Dager mellom påminnelser om signering: Skriv et helt tall fra 1 til 60\./ }),
  ).toBeVisible();
  await checkPage(page, testInfo, "admin-reminders-error");
  await page.getByLabel("Dager mellom påminnelser om signering").fill("5");
  await page.getByRole("button", { name: "Lagre", exact: true }).click();
  await expect(flash(page)).toContainText("Innstillingene for påminnelser er lagret.");
  await expect(page.getByLabel("Dager mellom påminnelser om signering")).toHaveValue("5");

  // A mail server of this test's own, so no other test's mail reading sees these mails.
  const received: { to: string; raw: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        for (const r of session.envelope.rcptTo)
          received.push({ to: r.address.toLowerCase(), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const smtpPort = (smtp.server.address() as { port: number }).port;
  const runOnce = async () => {
    const { stdout } = await promisify(execFile)("node", ["scripts/reminders.mjs"], {
      env: {
        ...process.env,
        DATABASE_URL: "",
        DATA_DIR: path.join(os.tmpdir(), `praksis-e2e-${new URL(baseURL!).port}`),
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`,
        APP_URL: baseURL!,
      },
      timeout: 60_000,
    });
    return stdout;
  };
  try {
    const first = await runOnce();
    expect(first).toMatch(/\[reminders\] due \d+; sent \d+, failed 0/);
    // The demo's warning, given two days ago to a student veileder4 supervises: told once, without its text.
    const notices = received.filter((m) => m.to === "veileder4@example.org" && m.raw.includes("/supervisor/class/"));
    expect(notices).toHaveLength(1);
    expect(notices[0].raw).toMatch(/Content-Type: text\/html/);
    expect(notices[0].raw).toContain(`${baseURL}/settings#reminders`);
    const sentFirst = Number(/sent (\d+)/.exec(first)![1]);
    expect(received).toHaveLength(sentFirst);

    // The second run sends none of the first run's reminders again. (Other spec files run on this
    // server meanwhile, and a signing form one of them has just signed may make a new reminder due:
    // such a new one may go, once.)
    const second = await runOnce();
    expect(second).toMatch(/\[reminders\] due \d+; sent \d+, failed 0/);
    const sentSecond = Number(/sent (\d+)/.exec(second)![1]);
    expect(received).toHaveLength(sentFirst + sentSecond);
    const reminderOf = (mail: { to: string; raw: string }) =>
      `${mail.to} ${/^Subject: (.*)$/m.exec(mail.raw)?.[1]} ${[...mail.raw.matchAll(/https?:\/\/[^\s"<>]+/g)]
        .map((m) => m[0])
        .sort()
        .join(" ")}`;
    const firstRun = new Set(received.slice(0, sentFirst).map(reminderOf));
    expect(received.slice(sentFirst).filter((mail) => firstRun.has(reminderOf(mail)))).toEqual([]);
    expect(new Set(received.map(reminderOf)).size).toBe(received.length);

    await page.goto("/admin/reminders?status=sent");
    await expect(page.getByText(new RegExp(`^Viser \\d+ av ${received.length}\\.$`))).toBeVisible();
    await expect(page.getByRole("cell", { name: /veileder4@example\.org/ }).first()).toBeVisible();
    await checkPage(page, testInfo, "admin-reminders-list");
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
});
