// The records domain's surface for server code: the retention run, its preview and schedule, erasure.
export * from "./index";
export { anonymisedEmail } from "./anonymise.server";
export { erasePerson, erasurePlan, ERASE_ACTION } from "./erasure.server";
export type { ErasedKind, ErasurePlan } from "./erasure.server";
export { lastRetentionRun, previewRetention, runRetention, RUN_ACTION } from "./run.server";
export type { ClassCounts, RetentionPreview } from "./run.server";
export { nextRunAfter } from "./schedule-claim.server";
export { runDailyRetention, scheduleRetention } from "./schedule.server";
