// Every form the signing form page posts, by its intent: the server parses a post with its schema.
import { z } from "zod";
import { endPartSchema, midPartSchema, signSchema } from "./signing-form.schema";
import type { Intent } from "./signing-form";

/** Cancelling and sending the result again carry nothing but their intent. */
const cancelSchema = z.object({ intent: z.literal("cancel") });
const submitResultSchema = z.object({ intent: z.literal("submitResult") });

export const SIGNING_SCHEMAS = {
  saveMid: midPartSchema,
  saveEnd: endPartSchema,
  sign: signSchema,
  cancel: cancelSchema,
  submitResult: submitResultSchema,
} satisfies Record<Intent, z.ZodObject>;
