import type { getFormProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { SubmitButton } from "~/components/app/SubmitButton";
import { ButtonGroup, ErrorSummary, PageHeading, TextField } from "~/components/ui";
import { errorSummaryItems, firstError } from "~/components/form-errors";
import { INVITED_PHONE_MAX } from "~/services/placements";
import { PERSON_NAME_MAX } from "~/services/platform/field-limits";

/** A field of the invitation's form, as `useValidatedForm` gives it. */
interface InvitationField {
  id: string;
  name: string;
  initialValue?: string;
  errors?: string[];
}

/** The invitation the link carries, as the page's loader read it. */
interface Invitation {
  secret: string;
  landing: string;
  email: string;
  isNew: boolean;
  vipps: boolean;
  studentName: string;
  subject: string;
}

/**
 * The invitation to become a student's supervisor: who invites, to what, and the button that accepts;
 * a new supervisor gives a name and a phone number first.
 */
export function InvitationAccept({
  invitation,
  formProps,
  formErrors,
  fields,
}: {
  invitation: Invitation;
  formProps: ReturnType<typeof getFormProps>;
  formErrors: string[] | undefined;
  fields: { fullName: InvitationField; phone: InvitationField };
}) {
  const { t } = useTranslation("student");
  const { isNew } = invitation;
  const summary = errorSummaryItems(t, [fields.fullName, fields.phone], {
    errors: formErrors,
    fieldId: isNew ? fields.fullName.id : "accept-submit",
  });
  return (
    <div className="app-content">
      <ErrorSummary errors={summary} />
      <PageHeading>{t("accept.title")}</PageHeading>
      <p>{t("accept.intro", { student: invitation.studentName, subject: invitation.subject })}</p>
      <p>{isNew ? t("accept.introNew") : t("accept.introExisting", { email: invitation.email })}</p>
      <Form method="post" {...formProps} noValidate>
        <input type="hidden" name="verificationGuid" value={invitation.secret} />
        <input type="hidden" name="redirect_uri" value={invitation.landing} />
        {isNew ? <NewSupervisorFields email={invitation.email} fields={fields} /> : null}
        {invitation.vipps ? <p>{t("accept.vippsHint")}</p> : null}
        <ButtonGroup>
          <SubmitButton id="accept-submit" name="intent" value="accept">
            {isNew ? t("accept.submit") : t("accept.submitExisting")}
          </SubmitButton>
          {invitation.vipps ? (
            <SubmitButton variant="secondary" name="intent" value="accept-vipps">
              {t("accept.submitVipps")}
            </SubmitButton>
          ) : null}
        </ButtonGroup>
      </Form>
    </div>
  );
}

/** Name, the invited address and a phone number: what a new supervisor's account is made of. */
function NewSupervisorFields({
  email,
  fields,
}: {
  email: string;
  fields: { fullName: InvitationField; phone: InvitationField };
}) {
  const { t } = useTranslation("student");
  return (
    <>
      <TextField
        label={t("accept.nameLabel")}
        name={fields.fullName.name}
        id={fields.fullName.id}
        autoComplete="name"
        required
        maxLength={PERSON_NAME_MAX}
        width="30"
        defaultValue={fields.fullName.initialValue ?? ""}
        error={firstError(t, fields.fullName.errors)}
      />
      <TextField
        label={t("accept.emailLabel")}
        hint={t("accept.emailHint")}
        name="invitedEmail"
        id="invitedEmail"
        type="email"
        readOnly
        width="30"
        value={email}
      />
      <TextField
        label={t("accept.phoneLabel")}
        hint={t("accept.phoneHint")}
        name={fields.phone.name}
        id={fields.phone.id}
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        required
        maxLength={INVITED_PHONE_MAX}
        width="20"
        defaultValue={fields.phone.initialValue ?? ""}
        error={firstError(t, fields.phone.errors)}
      />
    </>
  );
}
