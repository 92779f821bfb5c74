// The warnings domain's public surface for server code: loaders, actions and other domains' services.
export {
  confirmWarning,
  deleteWarning,
  saveWarningDraft,
  submitWarning,
  warningFor,
  warningForView,
  warningStateOf,
} from "./warnings.server";
export type { WarningForView } from "./warnings.server";
