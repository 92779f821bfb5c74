import { useTranslation } from "react-i18next";

export type FieldErrorProps = {
  id: string;
  message: string;
};

/** A field's error message with a visually hidden "Feil:" prefix, referenced by aria-describedby. */
export function FieldError({ id, message }: FieldErrorProps) {
  const { t } = useTranslation("ui");
  return (
    <p id={id} className="ui-error-message">
      <span className="ui-visually-hidden">{`${t("errorPrefix")} `}</span>
      {message}
    </p>
  );
}
