// The erasure's confirmation (erase-user.tsx): the box "Jeg forstår at dette ikke kan angres" must be ticked.
import { z } from "zod";

export const schema = z.object({
  intent: z.literal("erase"),
  understood: z.literal("yes", { error: "records:erase.errors.understood" }),
});
