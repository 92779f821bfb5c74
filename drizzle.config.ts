import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./app/services/platform/db/schema.ts",
  out: "./drizzle",
});
