import { getFormProps } from "@conform-to/react";
import { useState } from "react";
import { Form } from "react-router";
import { SubmitButton } from "~/components/app/SubmitButton";
import { firstError } from "~/components/form-errors";
import { CheckboxGroup, SummaryList } from "~/components/ui";
import { useHydrated } from "~/components/ui/internal";
import type { SigningFormView } from "~/services/signing/index.server";
import type { SendingView, SignForm, T, TC } from "./SigningFormSections";

/** The signatures so far, and the viewer's own signing when it is theirs to give. */
export function SigningSignSection({
  view,
  form,
  sending,
  declaration,
  t,
  tc,
}: {
  view: SigningFormView;
  form: SignForm;
  sending: SendingView | null;
  declaration: string;
  t: T;
  tc: TC;
}) {
  const { rights } = view;
  // The teacher's signature with forms not sent asks for the box (or is not offered where the institution requires them sent).
  const unsent = sending !== null && rights.signAs === "teacher" && sending.unsent > 0;
  return (
    <section aria-labelledby="sign-heading">
      <h2 id="sign-heading" tabIndex={-1}>
        {t("sign.heading")}
      </h2>
      <p>{declaration}</p>
      <SummaryList
        rows={view.signatures.map((s) => ({
          key: t(`sign.signers.${s.signer}`),
          value:
            s.atText && s.name
              ? t("sign.signedBy", { name: s.name, at: s.atText })
              : s.signer === "supervisor" && view.withoutSupervisorText
                ? t("sign.withoutSupervisor", { at: view.withoutSupervisorText })
                : t("sign.notSigned"),
        }))}
      />
      {rights.sign && unsent && sending.requireSentForms ? (
        <p>{tc("sign.required")}</p>
      ) : rights.sign ? (
        <SignatureForm view={view} form={form} unsent={unsent} t={t} tc={tc} />
      ) : rights.signBlocked &&
        !["alreadySigned", "notCreated"].includes(rights.signBlocked) &&
        rights.banner === null ? (
        <p>{t(`refused.${rights.signBlocked}`)}</p>
      ) : null}
    </section>
  );
}

function SignatureForm({
  view,
  form: [signForm, signFields],
  unsent,
  t,
  tc,
}: {
  view: SigningFormView;
  form: SignForm;
  unsent: boolean;
  t: T;
  tc: TC;
}) {
  const { rights } = view;
  // Signing needs the confirmation box ticked: with JS the sign button waits for the box; without JS the server refuses an unticked one.
  const hydrated = useHydrated();
  const [confirmedWithoutSupervisor, setConfirmedWithoutSupervisor] = useState(false);
  return (
    <Form
      method="post"
      {...getFormProps(signForm)}
      noValidate
      onChange={(event) => {
        const target = event.target as unknown as HTMLInputElement;
        if (target.name === signFields.signWithoutSupervisorConfirmed.name)
          setConfirmedWithoutSupervisor(target.checked);
      }}
    >
      <input type="hidden" name="intent" value="sign" />
      <p>{t("sign.intro")}</p>
      {rights.confirmWithoutSupervisor ? (
        <CheckboxGroup
          legend={t("sign.confirmLegend")}
          legendSize="s"
          hint={t("sign.confirmHint")}
          name={signFields.signWithoutSupervisorConfirmed.name}
          id={signFields.signWithoutSupervisorConfirmed.id}
          options={[{ value: "yes", label: t("sign.confirmLabel") }]}
          error={firstError(t, signFields.signWithoutSupervisorConfirmed.errors)}
        />
      ) : null}
      {unsent ? (
        <CheckboxGroup
          legend={tc("sign.legend")}
          legendSize="s"
          hint={tc("sign.hint")}
          name={signFields.unsentAcknowledged.name}
          id={signFields.unsentAcknowledged.id}
          options={[{ value: "yes", label: tc("sign.label") }]}
          error={firstError(t, signFields.unsentAcknowledged.errors)}
        />
      ) : null}
      <SubmitButton disabled={hydrated && rights.confirmWithoutSupervisor && !confirmedWithoutSupervisor}>
        {t("sign.button")}
      </SubmitButton>
    </Form>
  );
}
