import { useEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import {
  data,
  Form,
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteLoaderData,
  useSubmit,
} from "react-router";
import { useNonce } from "~/components/nonce";
import { RequestIdCode, useRequestId } from "~/components/request-id";
import { Button, Details, FlashRegion, Header, SideMenu, SkipLink } from "~/components/ui";
import { DEFAULT_LANGUAGE } from "~/locales/languages";
import { env } from "~/services/platform/env.server";
import { takeFlash } from "~/services/platform/flash.server";
import { getInstance, getLanguage, i18nextMiddleware } from "~/services/platform/i18n.server";
import { currentInstitution, publicInstitution } from "~/services/platform/institution.server";
import { requestLogMiddleware } from "~/services/platform/log.server";
import { unsentKeyFor } from "~/services/platform/unsent-key.server";
import { malformedUrlMiddleware, securityMiddleware } from "~/services/platform/request.server";
import { keptFields, typedTexts, type PostedFields } from "~/services/platform/kept-post";
import { keptPostMiddleware } from "~/services/platform/kept-post.server";
import { currentSession, sessionMiddleware } from "~/services/identity/index.server";
import { ROLE_HOME, ROLE_MENU, ROLE_NAMES, type RoleId } from "~/services/identity";
import type { Route } from "./+types/root";
import appCss from "./styles/app.css?url";

export const middleware: Route.MiddlewareFunction[] = [
  requestLogMiddleware,
  securityMiddleware,
  i18nextMiddleware,
  malformedUrlMiddleware,
  // Before the session: its database read is what a page post first meets in an outage.
  keptPostMiddleware,
  sessionMiddleware,
];

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: appCss },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const language = getLanguage(context);
  const session = currentSession(context);
  const { flash, setCookie } = await takeFlash(request);
  const t = getInstance(context).t;
  return data(
    {
      language,
      institution: publicInstitution(currentInstitution(), language),
      user: session
        ? {
            displayName: session.user.displayName,
            roles: session.user.roles,
            activeRole: session.activeRole,
            privacyAccepted: session.privacyAccepted,
            // Names the person's sealed entries in the browser (not whose they are): the logout counts them.
            unsentKeyId: unsentKeyFor(session.user.id).keyId,
          }
        : null,
      flash: flash ? { type: flash.type, message: t(flash.key, flash.values) } : null,
      demo: env().demoMode,
      devOutbox: env().devOutbox,
      // MAIL_TRANSPORT=log (a trial): no mail is sent, and every page says so.
      mailLog: env().mailTransport === "log",
    },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

type RootData = Awaited<ReturnType<typeof loader>>["data"];

function usePageTitle(appName: string, errorTitle?: string): string {
  const { t } = useTranslation();
  const matches = useMatches();
  if (errorTitle) return `${errorTitle} – ${appName}`;
  // The deepest route that names its page: by the loader's `pageTitle` (a form's name, say), or its handle's `titleKey`.
  for (const match of [...matches].reverse()) {
    const pageTitle = (match.data as { pageTitle?: unknown } | undefined)?.pageTitle;
    if (typeof pageTitle === "string") return `${pageTitle} – ${appName}`;
    const key = (match.handle as { titleKey?: string } | undefined)?.titleKey;
    if (key) return `${t(key)} – ${appName}`;
  }
  return appName;
}

function AccountMenu({ user, aboutUrl }: { user: NonNullable<RootData["user"]>; aboutUrl: string }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const location = useLocation();
  const others = user.roles.filter((r) => r !== user.activeRole);
  const active = user.activeRole;
  const groups = [
    ...(active && user.privacyAccepted
      ? [
          {
            heading: t(`roles.${ROLE_NAMES[active]}.name`),
            items: [
              { href: ROLE_HOME[active], label: t("menu.home") },
              ...ROLE_MENU[active].map((item) => ({ href: item.href, label: t(item.labelKey) })),
            ],
          },
        ]
      : []),
    {
      heading: t("menu.general"),
      items: [
        { href: aboutUrl, label: t("menu.about") },
        { href: "/privacy-policy", label: t("menu.privacy") },
        {
          href: `/settings?back=${encodeURIComponent(location.pathname)}`,
          label: t("menu.settings"),
          current: location.pathname === "/settings",
        },
      ],
    },
  ];
  return (
    <SideMenu
      groups={groups}
      currentPath={location.pathname}
      label={t("menu.label")}
      extra={
        <>
          {user.privacyAccepted && others.length > 0 ? (
            <div className="ui-side-menu__group">
              <p className="ui-side-menu__heading">{t("menu.switchRole")}</p>
              {others.map((roleId: RoleId) => (
                <Form method="post" action="/role" key={roleId} className="app-menu-form">
                  <input type="hidden" name="roleId" value={roleId} />
                  <Button variant="link">{t("menu.switchTo", { role: t(`roles.${ROLE_NAMES[roleId]}.name`) })}</Button>
                </Form>
              ))}
            </div>
          ) : null}
          {/* Answers this person's pages keep until the server has them stay, sealed, for their next
              log-in here (ADR 0011): the logout says how many (the field is filled as it goes). */}
          <Form
            method="post"
            action="/logout"
            className="app-menu-form"
            onSubmit={(event) => {
              // The store's code is loaded only now, so no page's first load carries it (ADR 0012).
              event.preventDefault();
              const form = event.currentTarget;
              void import("~/components/app/unsentStore")
                .then(({ countUnsent, storage }) => {
                  const field = form.elements.namedItem("unsent");
                  if (field instanceof HTMLInputElement)
                    field.value = String(countUnsent(storage(), user.unsentKeyId, Date.now()));
                })
                .catch(() => {})
                .finally(() => submit(form));
            }}
          >
            <input type="hidden" name="unsent" defaultValue="" />
            <Button variant="secondary">{t("menu.logout")}</Button>
          </Form>
        </>
      }
    />
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const { t, i18n } = useTranslation();
  const nonce = useNonce();
  // Without the root loader's data (an error page: a bad address, a refusal) the language the
  // request was read in: the server's i18n instance has it, and in the browser <html lang>.
  const language = root?.language ?? i18n.language ?? DEFAULT_LANGUAGE;
  const institution = root?.institution;
  const appName = institution?.appName ?? "Praksis";
  const location = useLocation();

  useEffect(() => {
    if (i18n.language !== language) void i18n.changeLanguage(language);
  }, [language, i18n]);

  const colours = institution
    ? `:root{--brand:${institution.colours.brand};--brand-dark:${institution.colours.brandDark};--brand-contrast:${institution.colours.brandContrast}}`
    : "";
  return (
    <html lang={language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {colours ? <style nonce={nonce}>{colours}</style> : null}
      </head>
      <body>
        <SkipLink />
        {root?.demo ? <DemoBanner outbox={root.devOutbox} /> : null}
        {root?.mailLog ? <MailLogBanner /> : null}
        <Header appName={appName} homeHref="/">
          {root?.user ? <span className="app-header__user">{root.user.displayName}</span> : null}
          <Form method="post" action="/settings" className="app-header__language">
            <input type="hidden" name="back" value={location.pathname + location.search} />
            <input type="hidden" name="language" value={language === "nb" ? "en" : "nb"} />
            <Button variant="link" lang={language === "nb" ? "en" : "nb"}>
              {language === "nb" ? "English" : "Norsk"}
            </Button>
          </Form>
        </Header>
        <div className={root?.user ? "app-layout" : "app-layout app-layout--single"}>
          {root?.user ? <AccountMenu user={root.user} aboutUrl={institution?.aboutUrl ?? "/"} /> : null}
          <main id="main" className="app-main" tabIndex={-1}>
            <FlashRegion flash={root?.flash ?? null} />
            {children}
          </main>
        </div>
        <footer className="app-footer">
          {institution ? (
            <p>
              {institution.institutionName} · {t("footer.organisationNumber")} {institution.organisationNumber}
            </p>
          ) : null}
          {/* Universal design: the institution's statement (uustatus.no) and the app's own page, on every page. */}
          <ul className="app-footer__links">
            <li>
              <Link to="/privacy-policy">{t("menu.privacy")}</Link>
            </li>
            <li>
              <Link to="/accessibility">{t("footer.accessibility")}</Link>
            </li>
            {institution ? (
              <>
                <li>
                  <a href={institution.accessibilityStatementUrl}>{t("footer.accessibilityStatement")}</a>
                </li>
                <li>
                  <a href={institution.aboutUrl}>{t("menu.about")}</a>
                </li>
              </>
            ) : null}
            {root?.devOutbox ? (
              <li>
                <Link to="/dev/outbox">{t("outbox.title")}</Link>
              </li>
            ) : null}
          </ul>
        </footer>
        <PageTitle appName={appName} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** Demo mode (README): made-up people, and, without SMTP, log-in codes anyone can read. */
function DemoBanner({ outbox }: { outbox: boolean }) {
  const { t } = useTranslation();
  return (
    <aside className="app-demo" aria-label={t("demo.label")}>
      <p>
        <strong>{t("demo.title")}</strong> {t("demo.text")}{" "}
        {outbox ? (
          <>
            {t("demo.codesPublic")} <Link to="/dev/outbox">{t("outbox.title")}</Link>.
          </>
        ) : null}
      </p>
    </aside>
  );
}

/** MAIL_TRANSPORT=log (README): this installation sends no mail, so log-in codes and reminders reach nobody. */
export function MailLogBanner() {
  const { t } = useTranslation();
  return (
    <aside className="app-demo" aria-label={t("mailLog.title")}>
      <p>
        <strong>{t("mailLog.title")}:</strong> {t("mailLog.text")}
      </p>
    </aside>
  );
}

/**
 * After a move inside the app (a link, a post's redirect; not the first load) the narrow screen's
 * menu folds away and focus goes to the new page's h1, so a screen reader reads where it landed and
 * a phone shows the page's top. Focus a page's own script put in the main region (a dialog, a sort
 * link, a field) stays, and so does a move to a #fragment. Without JavaScript every page is loaded
 * afresh: the menu starts folded and the browser starts at the top.
 */
function useFocusOnNavigation() {
  const { key, hash } = useLocation();
  const shown = useRef(key);
  useEffect(() => {
    if (shown.current === key) return;
    shown.current = key;
    document.querySelector(".ui-side-menu details")?.removeAttribute("open");
    const main = document.getElementById("main");
    const active = document.activeElement;
    if (!main || hash || (active !== main && main.contains(active))) return;
    const heading = main.querySelector("h1") ?? main;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }, [key, hash]);
}

/** <title> is rendered where React 19 hoists it into <head>. */
function PageTitle({ appName }: { appName: string }) {
  useFocusOnNavigation();
  return <title>{usePageTitle(appName)}</title>;
}

export default function App() {
  return <Outlet />;
}

/** The client's mistakes and the ones the server knows by name: the page's title and text by status. */
const KNOWN_STATUSES: Record<number, { title: string; text: string }> = {
  // A page that does not exist (or that the person may not know exists).
  404: { title: "errors.notFoundTitle", text: "errors.notFoundText" },
  // A malformed address, a form that cannot be read: the client's mistake.
  400: { title: "errors.badRequestTitle", text: "errors.badRequestText" },
};

/** Every error page: its heading, what happened, and the way home. */
function ErrorPage({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="app-content">
      <h1>{title}</h1>
      {children}
      <p>
        <Link to="/">{t("errors.home")}</Link>
      </p>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  if (!isRouteErrorResponse(error)) {
    // A fault in the app (a 500), or a script that could not load offline.
    return (
      <>
        <OfflineReload error={error} />
        <ErrorPage title={t("errors.somethingWrong")}>
          <p>{t("errors.serverError")}</p>
          <RequestReference />
        </ErrorPage>
      </>
    );
  }
  const known = KNOWN_STATUSES[error.status];
  if (known) {
    return (
      <ErrorPage title={t(known.title)}>
        <p>{t(known.text)}</p>
      </ErrorPage>
    );
  }
  if (error.status === 503) {
    // The database cannot be reached (client.server.ts): a clear page, not an error code; after a
    // page post, with what was posted, to send again (kept-post.server.ts).
    const kept = keptFields(error.data);
    return (
      <ErrorPage title={t("errors.unavailableTitle")}>
        {kept ? <ResendPost fields={kept} /> : <p>{t("errors.unavailableText")}</p>}
      </ErrorPage>
    );
  }
  const description = typeof error.data === "string" && error.data.length < 300 ? error.data : "";
  return (
    <ErrorPage title={t("errors.title")}>
      <p>
        {t("errors.status", { status: error.status })} {description || t("errors.unexpected")}
      </p>
    </ErrorPage>
  );
}

/**
 * A page post the database's outage stopped (JavaScript off): every field back in a plain form to
 * the same address (same session, same origin, so it is checked as the first post was), and what
 * the person wrote, readable. React escapes every value.
 */
function ResendPost({ fields }: { fields: PostedFields }) {
  const { t } = useTranslation();
  const texts = typedTexts(fields);
  return (
    <>
      <p>{t("errors.unavailableKeptText")}</p>
      <form method="post">
        {fields.map(([name, value], index) => (
          <input type="hidden" name={name} value={value} key={index} />
        ))}
        <Button type="submit">{t("errors.resend")}</Button>
      </form>
      {texts.length > 0 ? (
        <Details summary={t("errors.keptTexts")}>
          <ul>
            {texts.map((text, index) => (
              <li key={index} className="app-mail__body">
                {text}
              </li>
            ))}
          </ul>
        </Details>
      ) : null}
    </>
  );
}

/** The request id of a server error, for the user to quote to the support desk (it is in the log line). */
function RequestReference() {
  const { t } = useTranslation();
  const id = useRequestId();
  if (!id) return null;
  return (
    <p>
      {t("errors.reference")} <RequestIdCode id={id} />
    </p>
  );
}

/**
 * A link followed inside the app fetches the next page's data; offline that fails and lands here.
 * When the service worker controls the page, loading the address afresh shows its offline page
 * (ADR 0011) instead of this error.
 */
function OfflineReload({ error }: { error: unknown }) {
  useEffect(() => {
    if (!(error instanceof TypeError) || navigator.onLine) return;
    if (navigator.serviceWorker?.controller) window.location.reload();
  }, [error]);
  return null;
}
