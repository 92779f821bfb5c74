import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { cx, useHydrated } from "./internal";

export type FlashMessage = { type: "success" | "error" | "info"; message: string };

export type FlashRegionProps = {
  flash: FlashMessage | null;
  /** How long the message stays when JavaScript runs. */
  autoHideMs?: number;
};

/**
 * The server's flash message in a `role="status"` region that is always present, so messages
 * put into it later are announced. With JavaScript the message hides itself after 10 s (not
 * while the pointer or focus is on it) and can be closed; without JavaScript it simply stays.
 */
export function FlashRegion({ flash, autoHideMs = 10_000 }: FlashRegionProps) {
  const { t } = useTranslation("ui");
  const hydrated = useHydrated();
  const [hidden, setHidden] = useState<FlashMessage | null>(null);
  const [paused, setPaused] = useState(false);
  const shown = flash !== null && flash !== hidden ? flash : null;
  const visible = shown !== null;

  useEffect(() => {
    if (!hydrated || !visible || paused) return;
    const timer = setTimeout(() => setHidden(flash), autoHideMs);
    return () => clearTimeout(timer);
  }, [hydrated, visible, paused, flash, autoHideMs]);

  function dismiss() {
    setHidden(flash);
    setPaused(false);
    // The button disappears with the message; keep focus somewhere sensible.
    document.getElementById("main")?.focus({ preventScroll: true });
  }

  return (
    <div
      className="ui-flash-region"
      role="status"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      {shown ? (
        <div className={cx("ui-flash", `ui-flash--${shown.type}`)}>
          <p className="ui-flash__message">
            <span className="ui-visually-hidden">{`${t(`alertPrefix.${shown.type}`)} `}</span>
            {shown.message}
          </p>
          {hydrated ? (
            <button type="button" className="ui-flash__close" onClick={dismiss}>
              {t("close")}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
