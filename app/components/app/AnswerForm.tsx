// The form page's form (routes/shared/form-page.tsx): one group of questions, saved as it is typed
// (the autosave), with the page's buttons and what a refused post says.
import { useEffect, useMemo, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from "react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { AnswerPageTools } from "./AnswerPageTools";
import { AnswerMissingGrades } from "./AnswerMissingGrades";
import { AnswerQuestion, ReadOnlyQuestion } from "./AnswerQuestion";
import { answerAutosave, type AutosaveConflict } from "./answerAutosave";
import { SubmitButton } from "./SubmitButton";
import { answerKeeper } from "./unsentAnswers";
import { AUTOSAVE_DELAY_MS } from "./autosaveDecision";
import { autosaveStatusText, logInAgainHref, useAutosave, type AutosaveStatus } from "./useAutosave";
import { ButtonGroup, ErrorSummary } from "~/components/ui";
import { useHydrated } from "~/components/ui/internal";
import { COMMENT_LIMIT, TEXT_ANSWER_LIMIT } from "~/services/answering";
import type { FormPageView, PostResult } from "~/services/answering/index.server";

/** The server's refusal of a page post: the fields' errors, the conflicts, the grades missing, what was posted. */
export type AnswerRefused = Extract<PostResult, { kind: "refused" }>;

/** Where the answers belong (class, form, scheme, student), as the autosave posts it. */
export type AnswerPlace = Record<string, string>;

/** The person's own key for what the browser keeps until the server has it. */
export interface AnswerKeeperKey {
  keyId: string;
  key: string;
}

type Conflicts = Record<number, AutosaveConflict>;

function conflictsOf(refused: AnswerRefused): Conflicts {
  return Object.fromEntries(Object.entries(refused.conflicts).map(([id, c]) => [id, { questionId: Number(id), ...c }]));
}

/** The page's autosave with its keeper; the conflicts it meets (and settles) go to `setConflicts`. */
function useAnswerAutosave(
  formRef: RefObject<HTMLFormElement | null>,
  {
    autosave,
    keeperKey,
    setConflicts,
  }: { autosave: AnswerPlace; keeperKey: AnswerKeeperKey; setConflicts: Dispatch<SetStateAction<Conflicts>> },
) {
  const hydrated = useHydrated();
  // One keeper for the page's life: it opens the key once, and keeps its entries in order.
  const { keyId, key } = keeperKey;
  const place = JSON.stringify(autosave);
  const keeper = useMemo(
    () => answerKeeper({ key: { keyId, key }, place: JSON.parse(place) as Record<string, string> }),
    [keyId, key, place],
  );
  return useAutosave(formRef, {
    endpoint: "/api/answers",
    delayMs: AUTOSAVE_DELAY_MS,
    enabled: hydrated,
    offline: keeper,
    adapter: answerAutosave({
      place: autosave,
      limits: { comment: COMMENT_LIMIT, text: TEXT_ANSWER_LIMIT },
      onConflicts: (list) =>
        setConflicts((current) => ({ ...current, ...Object.fromEntries(list.map((c) => [c.questionId, c])) })),
      // The person's own version is stored now: the question's conflict is settled.
      onSaved: (ids) =>
        setConflicts((current) => {
          const next = { ...current };
          for (const id of ids) delete next[id];
          return next;
        }),
    }),
  });
}

/** The error summary's lines for a refused post, each linking to its field. */
function useAnswerErrorItems(refused: AnswerRefused | null, view: FormPageView) {
  const { t } = useTranslation("answers");
  const group = view.group!;
  return useMemo(() => {
    if (!refused) return [];
    const items: { fieldId: string; message: string }[] = [];
    if (refused.formError)
      items.push({ fieldId: `q-${group.questions[0]?.id}`, message: t(`errors.${refused.formError}`) });
    for (const [id, error] of Object.entries(refused.fieldErrors)) {
      const field = error === "commentTooLong" ? `c-${id}` : `q-${id}`;
      items.push({
        fieldId: field,
        message: t(`errors.${error}`, { limit: COMMENT_LIMIT, question: view.questionText[Number(id)] }),
      });
    }
    for (const id of Object.keys(refused.conflicts)) {
      items.push({ fieldId: `q-${id}`, message: t("conflict.summary", { question: view.questionText[Number(id)] }) });
    }
    if (refused.missing.length > 0)
      items.push({ fieldId: "missing-grades", message: t("missing.heading", { count: refused.missing.length }) });
    return items;
  }, [refused, group, t, view.questionText]);
}

export function AnswerForm({
  view,
  refused,
  scaleHref,
  guidanceHref,
  autosave,
  keeperKey,
}: {
  view: FormPageView;
  refused: AnswerRefused | null;
  scaleHref: string;
  guidanceHref: string | null;
  autosave: AnswerPlace;
  keeperKey: AnswerKeeperKey;
}) {
  const { t } = useTranslation("answers");
  const formRef = useRef<HTMLFormElement>(null);
  const group = view.group!;
  const [conflicts, setConflicts] = useState<Conflicts>(() => (refused ? conflictsOf(refused) : {}));
  const { status } = useAnswerAutosave(formRef, { autosave, keeperKey, setConflicts });
  useEffect(() => {
    if (refused) setConflicts(conflictsOf(refused));
  }, [refused]);
  const errorItems = useAnswerErrorItems(refused, view);
  const isExpectations = view.mode === "expectations";

  return (
    <>
      <ErrorSummary errors={errorItems} />
      {refused && refused.missing.length > 0 ? <AnswerMissingGrades missing={refused.missing} view={view} /> : null}
      <AnswerPageTools view={view} scaleHref={scaleHref} guidanceHref={guidanceHref} />

      <Form method="post" ref={formRef} noValidate className="answer-form">
        <input type="hidden" name="page" value={view.page} />
        <fieldset className="ui-fieldset answer-form__group">
          <legend className="ui-fieldset__legend ui-fieldset__legend--l">
            <h2 className="ui-fieldset__heading">{group.name}</h2>
          </legend>
          {group.readOnly ? <p>{t("question.studentGroup")}</p> : null}
          {group.questions.map((question, index) =>
            group.readOnly ? (
              <ReadOnlyQuestion key={question.id} number={index + 1} question={question} />
            ) : (
              <AnswerQuestion
                key={question.id}
                number={index + 1}
                question={question}
                group={group}
                posted={refused?.values[question.id]}
                token={refused?.tokens[question.id] ?? question.token}
                error={refused?.fieldErrors[question.id]}
                conflict={conflicts[question.id]}
                isExpectations={isExpectations}
                onResolve={() =>
                  setConflicts((current) => {
                    const next = { ...current };
                    delete next[question.id];
                    return next;
                  })
                }
              />
            ),
          )}
        </fieldset>
        <AnswerAutosaveStatus status={status} />
        <AnswerFormButtons view={view} />
      </Form>
    </>
  );
}

function AnswerAutosaveStatus({ status }: { status: AutosaveStatus }) {
  const { t, i18n } = useTranslation("answers");
  const hydrated = useHydrated();
  return (
    // Rendered by the server too (empty): the page's script fills it in, and the buttons below
    // stay where they were when the page appeared (a tap on them is never lost to a shift).
    <p className="answer-form__status" role="status">
      {hydrated ? autosaveStatusText(t, status, i18n.language) : null}
      {hydrated && status.state === "loggedOut" ? (
        <>
          {" "}
          <a href={logInAgainHref()}>{t("autosave.logIn")}</a>
        </>
      ) : null}
    </p>
  );
}

function AnswerFormButtons({ view }: { view: FormPageView }) {
  const { t } = useTranslation("answers");
  const last = view.page === view.pageCount;
  return (
    // The primary button first: pressing Enter in the form goes on, never back.
    <ButtonGroup className="answer-form__buttons">
      {!last ? (
        <SubmitButton name="intent" value="next">
          {t("buttons.next")}
        </SubmitButton>
      ) : view.mode === "expectations" ? (
        <SubmitButton name="intent" value="save">
          {t("buttons.saveExpectations")}
        </SubmitButton>
      ) : (
        <SubmitButton name="intent" value="send">
          {view.sentText ? t("buttons.sendAgain") : t("buttons.send")}
        </SubmitButton>
      )}
      {view.page > 1 ? (
        <SubmitButton name="intent" value="previous" variant="secondary">
          {t("buttons.previous")}
        </SubmitButton>
      ) : null}
      <SubmitButton name="intent" value="exit" variant="secondary">
        {t("buttons.exit")}
      </SubmitButton>
    </ButtonGroup>
  );
}
