// The demo domain's public surface for any code: where the demo sits in time.
export { demoCalendar, type DemoCalendar, type DemoClassDates } from "./calendar";
