// Adds up the JSON reports of the runs `npm test` made and prints one closing line.
import fs from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
let flaky = 0;
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) continue;
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  if (report.stats) {
    // A test that failed and passed on its retry is a failure (playwright.config.ts: failOnFlakyTests).
    passed += report.stats.expected;
    failed += report.stats.unexpected;
    flaky += report.stats.flaky;
    skipped += report.stats.skipped;
  } else {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  }
}
const flakyNote = flaky > 0 ? `, ${flaky} failed and then passed on the retry (a failure too)` : "";
console.log(`Tests: ${passed} passed, ${failed} failed${flakyNote}, ${skipped} skipped`);
process.exit(failed + flaky > 0 ? 1 : 0);
