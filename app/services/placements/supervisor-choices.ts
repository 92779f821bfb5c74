import { parseId } from "~/services/platform/ids";

/** A supervisor in one of the teacher's lists on a student's page: the name and e-mail address show. */
export interface SupervisorOption {
  userId: number;
  displayName: string;
  email: string;
}

/**
 * The teacher's choices of a student's supervisors: the assigned supervisor is one of the class's, and
 * the current one stays choosable even when not attached to the class (one who came by an invitation);
 * an extra supervisor is one of the class's who does not follow the student yet (neither assigned nor
 * already extra).
 */
export function supervisorChoices(
  placement: { supervisor: SupervisorOption | null; extraSupervisors: readonly SupervisorOption[] },
  classSupervisors: readonly SupervisorOption[],
): { supervisorChoices: SupervisorOption[]; extraCandidates: SupervisorOption[]; classHasSupervisors: boolean } {
  const current = placement.supervisor;
  const attached = current !== null && classSupervisors.some((s) => s.userId === current.userId);
  const following = new Set([current?.userId, ...placement.extraSupervisors.map((p) => p.userId)]);
  return {
    supervisorChoices: current && !attached ? [current, ...classSupervisors] : [...classSupervisors],
    extraCandidates: classSupervisors.filter((s) => !following.has(s.userId)),
    classHasSupervisors: classSupervisors.length > 0,
  };
}

/**
 * The assigned supervisor a post chooses: "none" (no supervisor), or a user id; anything else names
 * no supervisor of the class.
 */
export function chosenSupervisor(
  posted: string,
): { ok: true; supervisorUserId: number | null } | { ok: false; error: "notClassSupervisor" } {
  if (posted === "none") return { ok: true, supervisorUserId: null };
  const supervisorUserId = parseId(posted);
  return supervisorUserId === null ? { ok: false, error: "notClassSupervisor" } : { ok: true, supervisorUserId };
}
