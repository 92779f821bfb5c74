// The form editor's fields (routes/admin/form-editor.tsx): the draft as inputs, group by group, and the
// structural buttons. Without JavaScript every button is a post that returns the changed draft.

import type { TFunction } from "i18next";
import {
  Button,
  ButtonGroup,
  CheckboxGroup,
  RadioGroup,
  Tag,
  TextArea,
  TextField,
  VisuallyHidden,
} from "~/components/ui";
import {
  AUDIENCES,
  fieldId,
  fieldName,
  GRADING,
  labelsToText,
  LIMITS,
  nextKey,
  TEXT_INPUT,
  type DraftGroup,
  type FieldErrors,
  type FormDraft,
} from "~/services/admin";

/** The whole draft as hidden inputs, so the preview can go back to editing without losing anything. */
export function DraftHiddenFields({ draft }: { draft: FormDraft }) {
  return (
    <>
      <input type="hidden" name={fieldName.name} value={draft.name} />
      {draft.isMainForm ? <input type="hidden" name={fieldName.isMainForm} value="on" /> : null}
      {draft.groups.map((group, g) => (
        <div key={group.key} hidden>
          <input type="hidden" name={fieldName.group(g, "key")} value={group.key} />
          {group.id === null ? null : <input type="hidden" name={fieldName.group(g, "id")} value={group.id} />}
          <input type="hidden" name={fieldName.group(g, "name")} value={group.name} />
          <input type="hidden" name={fieldName.group(g, "type")} value={group.type} />
          <input type="hidden" name={fieldName.group(g, "options")} value={labelsToText(group.options)} />
          <input type="hidden" name={fieldName.group(g, "audience")} value={group.audience} />
          {group.questions.map((question, q) => (
            <div key={question.key}>
              <input type="hidden" name={fieldName.question(g, q, "key")} value={question.key} />
              {question.id === null ? null : (
                <input type="hidden" name={fieldName.question(g, q, "id")} value={question.id} />
              )}
              <input type="hidden" name={fieldName.question(g, q, "text")} value={question.text} />
              <input type="hidden" name={fieldName.question(g, q, "helpText")} value={question.helpText} />
            </div>
          ))}
        </div>
      ))}
    </>
  );
}

interface DraftFieldsProps {
  draft: FormDraft;
  errors: FieldErrors;
  answeredQuestionIds: number[];
  answeredGroupIds: number[];
  /** The editor's URL; structural buttons post to it with a fragment naming where to scroll back to. */
  path: string;
  t: TFunction<"adminForms">;
  busy: boolean;
}

/**
 * The editable draft. Items are keyed by their stable draft key, so with JavaScript a moved item
 * takes its inputs (and what was typed in them) along; without it the server's page is the truth.
 */
export function DraftFields({ draft, errors, answeredQuestionIds, answeredGroupIds, path, t, busy }: DraftFieldsProps) {
  // The key the server will give a new group or question (the same pure rule), so the page can return to it.
  const newKey = nextKey(draft);
  const error = (name: string) => {
    const key = errors[name]?.[0];
    return key ? t(key) : undefined;
  };
  return (
    <>
      <TextField
        label={t("editor.name")}
        name={fieldName.name}
        id={fieldId(fieldName.name)}
        defaultValue={draft.name}
        maxLength={LIMITS.formName}
        error={error(fieldName.name)}
        width="30"
      />
      <CheckboxGroup
        legend={t("editor.kindLegend")}
        legendSize="s"
        name={fieldName.isMainForm}
        id={fieldId(fieldName.isMainForm)}
        options={[{ value: "on", label: t("editor.isMainForm"), hint: t("editor.isMainFormHint") }]}
        defaultValue={draft.isMainForm ? ["on"] : []}
      />

      <h2>{t("editor.groupsHeading")}</h2>
      {answeredQuestionIds.length > 0 ? <p className="app-prose">{t("editor.answeredHint")}</p> : null}
      <div id="groups">
        {draft.groups.length === 0 ? <p>{t("editor.noGroups")}</p> : null}
        {draft.groups.map((group, g) => (
          <GroupFields
            key={group.key}
            group={group}
            g={g}
            last={g === draft.groups.length - 1}
            error={error}
            typeLocked={group.id !== null && answeredGroupIds.includes(group.id)}
            answeredQuestionIds={answeredQuestionIds}
            path={path}
            newKey={newKey}
            t={t}
            busy={busy}
          />
        ))}
      </div>
      <Button
        name="intent"
        value="add-group"
        variant="secondary"
        formAction={`${path}#group-${newKey}`}
        disabled={busy || draft.groups.length >= LIMITS.groups}
      >
        {t("editor.addGroup")}
      </Button>
    </>
  );
}

interface GroupFieldsProps {
  group: DraftGroup;
  g: number;
  last: boolean;
  error: (name: string) => string | undefined;
  typeLocked: boolean;
  answeredQuestionIds: number[];
  path: string;
  newKey: string;
  t: TFunction<"adminForms">;
  busy: boolean;
}

function GroupFields({
  group,
  g,
  last,
  error,
  typeLocked,
  answeredQuestionIds,
  path,
  newKey,
  t,
  busy,
}: GroupFieldsProps) {
  const here = `${path}#group-${group.key}`;
  const number = g + 1;
  const headingId = `group-${group.key}-heading`;
  return (
    <section className="form-editor__group" id={`group-${group.key}`} aria-labelledby={headingId}>
      <h3 id={headingId} className="form-editor__group-heading">
        {t("editor.groupHeading", { number })}
      </h3>
      <input type="hidden" name={fieldName.group(g, "key")} value={group.key} />
      {group.id === null ? null : <input type="hidden" name={fieldName.group(g, "id")} value={group.id} />}
      <TextField
        label={t("editor.groupName")}
        name={fieldName.group(g, "name")}
        id={fieldId(fieldName.group(g, "name"))}
        defaultValue={group.name}
        maxLength={LIMITS.groupName}
        error={error(fieldName.group(g, "name"))}
        width="30"
      />
      {typeLocked ? (
        <>
          <input type="hidden" name={fieldName.group(g, "type")} value={group.type} />
          <p id={fieldId(fieldName.group(g, "type"))}>
            <strong>{t("editor.groupType")}:</strong>{" "}
            {group.type === GRADING ? t("editor.typeGrading") : t("editor.typeText")}. {t("editor.typeLocked")}
          </p>
        </>
      ) : (
        <RadioGroup
          legend={t("editor.groupType")}
          legendSize="s"
          name={fieldName.group(g, "type")}
          id={fieldId(fieldName.group(g, "type"))}
          inline
          options={[
            { value: String(GRADING), label: t("editor.typeGrading") },
            { value: String(TEXT_INPUT), label: t("editor.typeText") },
          ]}
          defaultValue={String(group.type)}
          error={error(fieldName.group(g, "type"))}
        />
      )}
      <RadioGroup
        legend={t("editor.audience")}
        legendSize="s"
        hint={t("editor.audienceHint")}
        name={fieldName.group(g, "audience")}
        id={fieldId(fieldName.group(g, "audience"))}
        options={AUDIENCES.map((audience) => ({ value: audience, label: t(`editor.audienceOptions.${audience}`) }))}
        defaultValue={group.audience}
        error={error(fieldName.group(g, "audience"))}
      />
      <TextArea
        label={t("editor.labels")}
        hint={t("editor.labelsHint")}
        name={fieldName.group(g, "options")}
        id={fieldId(fieldName.group(g, "options"))}
        rows={Math.max(3, group.options.length + 1)}
        defaultValue={labelsToText(group.options)}
        error={error(fieldName.group(g, "options"))}
        className="form-editor__labels"
      />

      {group.questions.length === 0 ? <p>{t("editor.noQuestions")}</p> : null}
      <ol className="form-editor__questions" id={fieldId(`groups[${g}].questions`)}>
        {group.questions.map((question, q) => (
          <QuestionFields
            key={question.key}
            question={question}
            g={g}
            q={q}
            count={group.questions.length}
            groupNumber={number}
            answered={question.id !== null && answeredQuestionIds.includes(question.id)}
            error={error}
            path={path}
            here={here}
            t={t}
            busy={busy}
          />
        ))}
      </ol>
      <ButtonGroup className="form-editor__actions">
        <Button
          name="intent"
          value={`add-question:${g}`}
          variant="secondary"
          formAction={`${path}#question-${newKey}`}
          disabled={busy || group.questions.length >= LIMITS.questionsPerGroup}
        >
          {t("editor.addQuestion")} <VisuallyHidden>{t("editor.inGroup", { group: number })}</VisuallyHidden>
        </Button>
      </ButtonGroup>
      <GroupButtons g={g} last={last} here={here} path={path} t={t} busy={busy} />
    </section>
  );
}

/** The buttons that move a group up or down, or remove it. */
function GroupButtons({
  g,
  last,
  here,
  path,
  t,
  busy,
}: {
  g: number;
  last: boolean;
  here: string;
  path: string;
  t: TFunction<"adminForms">;
  busy: boolean;
}) {
  const number = g + 1;
  return (
    <ButtonGroup className="form-editor__actions form-editor__group-actions">
      {g > 0 ? (
        <ItemButton
          intent={`move-group-up:${g}`}
          to={here}
          label={t("editor.moveGroupUp", { group: number })}
          busy={busy}
        />
      ) : null}
      {last ? null : (
        <ItemButton
          intent={`move-group-down:${g}`}
          to={here}
          label={t("editor.moveGroupDown", { group: number })}
          busy={busy}
        />
      )}
      <ItemButton
        intent={`remove-group:${g}`}
        to={`${path}#groups`}
        label={t("editor.removeGroup", { group: number })}
        busy={busy}
      />
    </ButtonGroup>
  );
}

/** One question of a group: its text, its help text, and the buttons that move or remove it. */
function QuestionFields({
  question,
  g,
  q,
  count,
  groupNumber,
  answered,
  error,
  path,
  here,
  t,
  busy,
}: {
  question: GroupFieldsProps["group"]["questions"][number];
  g: number;
  q: number;
  count: number;
  groupNumber: number;
  answered: boolean;
  error: GroupFieldsProps["error"];
  path: string;
  here: string;
  t: TFunction<"adminForms">;
  busy: boolean;
}) {
  const context = t("editor.questionContext", { question: q + 1, group: groupNumber });
  return (
    <li className="form-editor__question" id={`question-${question.key}`}>
      <input type="hidden" name={fieldName.question(g, q, "key")} value={question.key} />
      {question.id === null ? null : <input type="hidden" name={fieldName.question(g, q, "id")} value={question.id} />}
      <TextField
        label={
          <>
            {t("editor.questionLabel", { number: q + 1 })}
            {answered ? (
              <>
                {" "}
                <Tag variant="info">{t("editor.answered")}</Tag>
              </>
            ) : null}
          </>
        }
        name={fieldName.question(g, q, "text")}
        id={fieldId(fieldName.question(g, q, "text"))}
        defaultValue={question.text}
        maxLength={LIMITS.questionText}
        error={error(fieldName.question(g, q, "text"))}
      />
      <TextArea
        label={t("editor.helpText")}
        optional
        name={fieldName.question(g, q, "helpText")}
        id={fieldId(fieldName.question(g, q, "helpText"))}
        rows={2}
        maxLength={LIMITS.helpText}
        defaultValue={question.helpText}
        error={error(fieldName.question(g, q, "helpText"))}
      />
      <ButtonGroup className="form-editor__actions">
        {q > 0 ? (
          <ItemButton
            intent={`move-question-up:${g}:${q}`}
            to={`${path}#question-${question.key}`}
            label={t("editor.moveUp")}
            context={context}
            busy={busy}
          />
        ) : null}
        {q < count - 1 ? (
          <ItemButton
            intent={`move-question-down:${g}:${q}`}
            to={`${path}#question-${question.key}`}
            label={t("editor.moveDown")}
            context={context}
            busy={busy}
          />
        ) : null}
        <ItemButton
          intent={`remove-question:${g}:${q}`}
          to={here}
          label={t("editor.remove")}
          context={context}
          busy={busy}
        />
      </ButtonGroup>
    </li>
  );
}

/** A small structural button; its accessible name says which item it acts on ("Flytt opp spørsmål 2 i gruppe 1"). */
function ItemButton({
  intent,
  to,
  label,
  context,
  busy,
}: {
  intent: string;
  /** Where the page returns to afterwards (without JS the browser scrolls to the fragment). */
  to: string;
  label: string;
  context?: string;
  busy: boolean;
}) {
  return (
    <Button name="intent" value={intent} variant="link" formAction={to} disabled={busy}>
      {label}
      {context ? <VisuallyHidden>{` ${context}`}</VisuallyHidden> : null}
    </Button>
  );
}
