/**
 * One reminder run in a process of its own, as a second app instance (or `npm run reminders` on
 * another machine) would make it: its own connections to the database, its own SMTP connection.
 * Used by app/services/reminders/reminders-smtp.server.test.ts to race two processes.
 *   DATABASE_URL=… SMTP_URL=… tsx app/test/reminders-run.ts <now ISO>
 * Prints "ready" once it is connected and waits for a line on its standard input, so that a test
 * starts two of them at the same moment; then prints the run's summary as JSON.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "~/services/platform/db/client.server";
import type { Institution } from "~/services/platform/institution.server";
import { reminderInstitution, runReminders } from "~/services/reminders/index.server";

const [nowArg] = process.argv.slice(2);
const database = await openDatabase({ url: process.env.DATABASE_URL!, kind: "external", poolSize: 4 });
const institution = JSON.parse(fs.readFileSync(path.resolve("app/institutions/fjordbyen.json"), "utf8")) as Institution;
// Both processes wait for the test's word, given once both are ready, so their runs overlap.
await database.db.execute(sql`select 1`);
process.stdout.write("ready\n");
await new Promise((resolve) => process.stdin.once("data", resolve));
process.stdin.pause();
const startedAt = Date.now();
const summary = await runReminders(database.db, {
  institution: reminderInstitution(institution),
  origin: "https://praksis.example.org",
  now: new Date(nowArg),
});
process.stdout.write(`${JSON.stringify({ ...summary, startedAt, endedAt: Date.now() })}\n`);
await database.close();
