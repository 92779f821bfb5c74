import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Button, Details, VisuallyHidden } from "~/components/ui";
import { useHydrated } from "~/components/ui/internal";
import "~/styles/answers.css";

/**
 * A question's help text: a `<details>` without JavaScript; with it, a button that opens the text
 * in a modal `<dialog>` (focus moves in, Esc and "Lukk" close it, focus returns to the button).
 */
export function HelpText({ question, text }: { question: string; text: string }) {
  const { t } = useTranslation("answers");
  const hydrated = useHydrated();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const modal = hydrated && typeof HTMLDialogElement === "function" && "showModal" in HTMLDialogElement.prototype;

  if (!modal) {
    return (
      <Details summary={t("help.show")} className="answer-help">
        <p className="answer-help__text">{text}</p>
      </Details>
    );
  }
  return (
    <div className="answer-help">
      <Button
        type="button"
        variant="secondary"
        className="answer-help__button"
        onClick={() => dialogRef.current?.showModal()}
      >
        {t("help.show")}
        <VisuallyHidden>: {question}</VisuallyHidden>
      </Button>
      <dialog ref={dialogRef} className="ui-dialog ui-dialog--modal" aria-labelledby={titleId}>
        <div className="ui-dialog__header">
          <h2 className="ui-dialog__title" id={titleId}>
            {t("help.title")}
          </h2>
          <button type="button" className="ui-dialog__close" onClick={() => dialogRef.current?.close()}>
            {t("help.close")}
          </button>
        </div>
        <div className="ui-dialog__body">
          <p className="answer-help__question">{question}</p>
          <p className="answer-help__text">{text}</p>
        </div>
      </dialog>
    </div>
  );
}
