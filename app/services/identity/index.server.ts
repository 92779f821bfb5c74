// The identity domain's public surface for server code: loaders, actions and other domains' services.
export {
  LoginError,
  acceptPrivacyPolicy,
  completeLogin,
  createAuthenticator,
  findUserByEmail,
  logout,
  requestLoginCode,
} from "./auth.server";
export type { LoginUser } from "./auth.server";
export { debugIdentity } from "./debug-fs.server";
export {
  areaMiddleware,
  currentSession,
  homeOf,
  requireApiRole,
  requireApiSession,
  requireAreaRole,
  requireRole,
  requireSession,
  sessionMiddleware,
} from "./guard.server";
export { matchingClasses } from "./memberships.server";
export type { CourseMembership } from "./memberships.server";
export { isProviderName } from "./oidc.server";
export { normaliseEmail, pruneCodes } from "./otp.server";
export {
  confirmVippsLink,
  finishProviderLogin,
  offeredProviders,
  pendingVippsLink,
  phoneDigits,
  resolveVippsUser,
  startProviderLogin,
} from "./provider-login.server";
export type { VippsConfirmOutcome } from "./provider-login.server";
export {
  createSession,
  destroyUserSessions,
  loadSession,
  pruneSessions,
  sessionIdOf,
  setActiveRole,
} from "./session.server";
