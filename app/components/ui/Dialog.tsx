import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { cx, headingTag, useHydrated, type HeadingLevel } from "./internal";

export type DialogProps = {
  title: ReactNode;
  titleLevel?: HeadingLevel;
  children: ReactNode;
  /** Where "Lukk" leads without JavaScript: the parent route. */
  closeHref?: string;
  /**
   * With JavaScript, and when given, the dialog opens as a modal `<dialog>`; this is called
   * when it closes (Esc or "Lukk"), typically navigating to `closeHref`.
   */
  onClose?: () => void;
  className?: string;
};

function supportsDialog() {
  return typeof HTMLDialogElement === "function" && "showModal" in HTMLDialogElement.prototype;
}

/**
 * A modal as a nested route. Without JavaScript (or in a browser without `<dialog>`) it is a
 * labelled section of the page with a "Lukk" link back; with JavaScript and `onClose` it is a
 * modal `<dialog>` that traps focus natively and closes on Esc. One the server rendered (the answer
 * to a plain post, or a page opened at its address) stays a section once the page's script has
 * started: on a slow machine the person may already have ticked its box or pressed its button, and
 * a `<dialog>` put in its place would be a new element, with what they did gone.
 */
export function Dialog({ title, titleLevel = 2, children, closeHref, onClose, className }: DialogProps) {
  const { t } = useTranslation("ui");
  const hydrated = useHydrated();
  // Rendered while the page hydrates: it came from the server, and stays as the person found it.
  const [fromServer] = useState(() => !hydrated);
  const titleId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });
  const modal = hydrated && !fromServer && onClose !== undefined && supportsDialog();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!modal || !dialog) return;
    const handleClose = () => onCloseRef.current?.();
    dialog.addEventListener("close", handleClose);
    if (!dialog.open) dialog.showModal();
    return () => dialog.removeEventListener("close", handleClose);
  }, [modal]);

  const Heading = headingTag(titleLevel);
  const content = (
    <>
      <div className="ui-dialog__header">
        <Heading className="ui-dialog__title" id={titleId}>
          {title}
        </Heading>
        {modal ? (
          <button type="button" className="ui-dialog__close" onClick={() => dialogRef.current?.close()}>
            {t("close")}
          </button>
        ) : closeHref ? (
          <Link to={closeHref} className="ui-dialog__close" preventScrollReset>
            {t("close")}
          </Link>
        ) : null}
      </div>
      <div className="ui-dialog__body">{children}</div>
    </>
  );

  return modal ? (
    <dialog ref={dialogRef} className={cx("ui-dialog", "ui-dialog--modal", className)} aria-labelledby={titleId}>
      {content}
    </dialog>
  ) : (
    <section className={cx("ui-dialog", className)} aria-labelledby={titleId}>
      {content}
    </section>
  );
}
