// The identity domain's public surface for any code, the browser's included (no server-only module).
export { ROLE, ROLE_HOME, ROLE_MENU, ROLE_NAMES, areaOfPath, isRoleId, isSimpleLogin, safeRedirect } from "./roles";
export type { RoleId } from "./roles";
export { phoneDigits } from "./phone";
