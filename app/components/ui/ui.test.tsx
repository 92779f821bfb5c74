import { createInstance } from "i18next";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import en from "~/locales/en/ui.json";
import nb from "~/locales/nb/ui.json";
import { Dialog } from "./Dialog";
import { Pagination } from "./Pagination";
import { Progress } from "./Progress";
import {
  AlertBanner,
  Button,
  Card,
  CheckboxGroup,
  Details,
  ErrorSummary,
  FlashRegion,
  Header,
  LinkButton,
  PageHeading,
  RadioGroup,
  Select,
  SideMenu,
  SkipLink,
  SummaryList,
  Table,
  Tag,
  TextArea,
  TextField,
  VisuallyHidden,
} from "./index";

function render(node: ReactNode, lng: "nb" | "en" = "nb") {
  const i18n = createInstance();
  void i18n.use(initReactI18next).init({
    lng,
    fallbackLng: false,
    ns: ["ui"],
    defaultNS: "ui",
    resources: { nb: { ui: nb }, en: { ui: en } },
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  const html = renderToString(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={["/teacher/classes"]}>{node}</MemoryRouter>
    </I18nextProvider>,
  );
  expect(html).not.toMatch(/\sstyle=/);
  return html;
}

/** The attributes of the first element with this id. */
function attributesOf(html: string, id: string): string {
  const match = html.match(new RegExp(`<[a-z]+[^>]*\\sid="${id}"[^>]*>`));
  if (!match) throw new Error(`no element with id="${id}" in ${html}`);
  return match[0];
}

function flatKeys(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => flatKeys(inner, prefix ? `${prefix}.${key}` : key));
}

describe("ui locales", () => {
  it("have the same keys in bokmål and English", () => {
    expect(flatKeys(en).sort()).toEqual(flatKeys(nb).sort());
  });
});

describe("TextField", () => {
  it("ties label, hint and input together without an error", () => {
    const html = render(<TextField label="E-postadresse" name="email" type="email" hint="Den du logger inn med" />);
    expect(html).toContain('<label for="email" class="ui-label">E-postadresse</label>');
    const input = attributesOf(html, "email");
    expect(input).toContain('name="email"');
    expect(input).toContain('type="email"');
    expect(input).toContain('aria-describedby="email-hint"');
    expect(input).not.toContain("aria-invalid");
    expect(html).toContain('id="email-hint"');
  });

  it("marks an invalid field and describes it by hint and error, with the Feil: prefix", () => {
    const html = render(
      <TextField
        label="Kode"
        name="code"
        id="otp"
        hint="Seks sifre"
        error="Skriv inn koden fra e-posten"
        autoComplete="one-time-code"
        inputMode="numeric"
        width="10"
      />,
    );
    expect(html).toContain('for="otp"');
    const input = attributesOf(html, "otp");
    expect(input).toContain('aria-invalid="true"');
    expect(input).toContain('aria-describedby="otp-hint otp-error"');
    expect(input).toContain('autoComplete="one-time-code"');
    expect(input).toContain('inputMode="numeric"');
    expect(input).toContain("ui-input--width-10");
    expect(attributesOf(html, "otp-error")).toContain("ui-error-message");
    expect(html).toContain('<span class="ui-visually-hidden">Feil: </span>Skriv inn koden fra e-posten');
  });

  it("uses the English prefix in English", () => {
    const html = render(<TextField label="Code" name="code" error="Enter the code" />, "en");
    expect(html).toContain('<span class="ui-visually-hidden">Error: </span>Enter the code');
  });

  it("can be the page heading and say that it is optional", () => {
    const html = render(<TextField label="Telefon" name="phone" isPageHeading optional />);
    expect(html).toMatch(
      /<h1 class="ui-label-wrapper"><label for="phone"[^>]*>Telefon<span[^>]*> \(valgfritt\)<\/span><\/label><\/h1>/,
    );
  });
});

describe("TextArea", () => {
  it("renders the limit on the server, uses maxLength and links the counter text", () => {
    const html = render(<TextArea label="Kommentar" name="comment" maxLength={2000} defaultValue="Hei" />);
    const textarea = attributesOf(html, "comment");
    expect(textarea).toContain('maxLength="2000"');
    expect(textarea).toContain('aria-describedby="comment-info"');
    expect(html).toContain("Du kan skrive opptil 2000 tegn");
    expect(attributesOf(html, "comment-info")).not.toContain("ui-visually-hidden");
    // The live count is an enhancement: none in the server HTML.
    expect(html).not.toContain("aria-live");
    expect(html).toContain(">Hei</textarea>");
  });

  it("pluralises the limit in English and describes by hint, error and counter", () => {
    const html = render(
      <TextArea label="Comment" name="comment" hint="Optional" error="Too long" maxLength={1} />,
      "en",
    );
    expect(html).toContain("You can enter up to 1 character<");
    expect(attributesOf(html, "comment")).toContain('aria-describedby="comment-hint comment-error comment-info"');
  });

  it("has no counter without maxLength", () => {
    const html = render(<TextArea label="Notat" name="note" />);
    expect(html).not.toContain("tegn");
    expect(attributesOf(html, "note")).not.toContain("aria-describedby");
  });
});

describe("RadioGroup and CheckboxGroup", () => {
  const options = [
    { value: "1", label: "Svak" },
    { value: "2", label: "God", hint: "Over forventet nivå" },
    { value: "3", label: "Svært god" },
  ];

  it("puts radios in a fieldset with legend; the first radio carries the group id", () => {
    const html = render(
      <RadioGroup
        name="q12"
        legend="Kommunikasjon"
        options={options}
        defaultValue="2"
        error="Velg et alternativ"
        hint="Velg ett"
      />,
    );
    expect(html).toMatch(/<fieldset class="ui-fieldset" aria-describedby="q12-hint q12-error">/);
    expect(html).toContain("<legend");
    expect(attributesOf(html, "q12")).toContain('value="1"');
    expect(attributesOf(html, "q12-2")).toContain("checked");
    expect(attributesOf(html, "q12-2")).toContain('aria-describedby="q12-2-item-hint"');
    expect(attributesOf(html, "q12-3")).toContain('type="radio"');
    expect(html).toContain('<label class="ui-radios__label" for="q12-3">Svært god</label>');
    expect(html).toContain("Feil: </span>Velg et alternativ");
    expect(html).toContain("ui-form-group--error");
  });

  it("can use the legend as the page heading", () => {
    const html = render(<RadioGroup name="role" legend="Velg rolle" isPageHeading legendSize="l" options={options} />);
    expect(html).toMatch(
      /<legend[^>]*ui-fieldset__legend--l[^>]*><h1 class="ui-fieldset__heading">Velg rolle<\/h1><\/legend>/,
    );
    expect(html).toContain('<fieldset class="ui-fieldset">');
  });

  it("checks every default value of a checkbox group", () => {
    const html = render(<CheckboxGroup name="days" legend="Dager" options={options} defaultValue={["1", "3"]} />);
    expect(attributesOf(html, "days")).toContain("checked");
    expect(attributesOf(html, "days-2")).not.toContain("checked");
    expect(attributesOf(html, "days-3")).toContain("checked");
    expect(attributesOf(html, "days-3")).toContain('type="checkbox"');
  });
});

describe("Select", () => {
  it("labels the select and marks errors", () => {
    const html = render(
      <Select
        label="Klasse"
        name="classId"
        placeholder="Velg klasse"
        options={[{ value: "7", label: "SYK2001 høst" }]}
        defaultValue="7"
        error="Velg en klasse"
      />,
    );
    expect(html).toContain('for="classId"');
    const select = attributesOf(html, "classId");
    expect(select).toContain('aria-invalid="true"');
    expect(select).toContain('aria-describedby="classId-error"');
    expect(html).toContain('<option value="">Velg klasse</option>');
    expect(html).toMatch(/<option value="7" selected="">SYK2001 høst<\/option>/);
  });
});

describe("ErrorSummary", () => {
  it("links each message to its field", () => {
    const html = render(
      <ErrorSummary
        errors={[
          { fieldId: "email", message: "Skriv inn e-postadressen" },
          { fieldId: "q12", message: "Velg et alternativ" },
        ]}
      />,
    );
    expect(html).toMatch(
      /<div class="ui-error-summary" role="alert" tabindex="-1" aria-labelledby="([^"]+)"><h2 class="ui-error-summary__title" id="\1">Det er et problem<\/h2>/,
    );
    expect(html).toContain('<a href="#email">Skriv inn e-postadressen</a>');
    expect(html).toContain('<a href="#q12">Velg et alternativ</a>');
  });

  it("renders nothing without errors", () => {
    expect(render(<ErrorSummary errors={[]} />)).toBe("");
  });

  it("speaks English", () => {
    expect(render(<ErrorSummary errors={[{ fieldId: "x", message: "m" }]} />, "en")).toContain("There is a problem");
  });
});

describe("FlashRegion", () => {
  it("keeps an empty status region when there is no message", () => {
    expect(render(<FlashRegion flash={null} />)).toBe('<div class="ui-flash-region" role="status"></div>');
  });

  it("renders the message without a close button on the server", () => {
    const html = render(<FlashRegion flash={{ type: "success", message: "Skjemaet er sendt" }} />);
    expect(html).toContain('role="status"');
    expect(html).toContain("ui-flash--success");
    expect(html).toContain("Vellykket: </span>Skjemaet er sendt");
    expect(html).not.toContain("<button");
  });
});

describe("SideMenu", () => {
  const groups = [
    {
      heading: "Klasser",
      items: [
        { href: "/teacher/classes", label: "Mine klasser" },
        { href: "/teacher/warnings", label: "Varsler" },
      ],
    },
  ];

  it("marks the current page and collapses behind a native details on small screens", () => {
    const html = render(<SideMenu groups={groups} currentPath="/teacher/classes" />);
    expect(html).toMatch(/^<nav class="ui-side-menu" aria-label="Hovedmeny">/);
    expect(html).toContain('<summary class="ui-side-menu__toggle">Meny</summary>');
    const current = html.match(/<a[^>]*aria-current="page"[^>]*>([^<]*)<\/a>/g) ?? [];
    // Two copies (narrow and wide); CSS shows one of them.
    expect(current).toHaveLength(2);
    expect(current.every((link) => link.includes('href="/teacher/classes"'))).toBe(true);
    expect(html).not.toMatch(/href="\/teacher\/warnings"[^>]*aria-current/);
    expect(html).toMatch(
      /<h2 class="ui-side-menu__heading" id="([^"]+)">Klasser<\/h2><ul class="ui-side-menu__list" aria-labelledby="\1">/,
    );
  });

  it("lets an item say it is current", () => {
    const html = render(
      <SideMenu label="Admin" groups={[{ items: [{ href: "/admin/users", label: "Brukere", current: true }] }]} />,
      "en",
    );
    expect(html).toContain('aria-label="Admin"');
    expect(html).toContain(">Menu</summary>");
    expect(html).toMatch(/aria-current="page" href="\/admin\/users"/);
  });
});

describe("Table", () => {
  it("has a caption, column and row headers with scope, and greys out inactive rows", () => {
    const html = render(
      <Table
        caption="Brukere"
        captionHidden
        rowHeaders
        stack={false}
        columns={[{ header: "Navn" }, { header: "Roller", numeric: true }]}
        rows={[
          { key: "1", cells: ["Kari", 2] },
          { key: "2", cells: ["Ola", 1], inactive: true },
        ]}
      />,
    );
    expect(html).toMatch(
      /<div class="ui-table-wrapper" role="region" aria-labelledby="([^"]+)" tabindex="0"><table class="ui-table"><caption id="\1" class="ui-table__caption ui-visually-hidden">Brukere<\/caption>/,
    );
    expect(html).toContain('<th scope="col" class="ui-table__header">Navn</th>');
    expect(html).toContain('<th scope="row" class="ui-table__header ui-table__header--row">Kari</th>');
    expect(html).toContain('<td class="ui-table__cell ui-table__cell--numeric">2</td>');
    expect(html).toContain('<tr class="ui-table__row ui-table__row--inactive">');
  });

  it("stacks on narrow screens: each value's column name, and no role on the table's parts (invalid HTML in a table)", () => {
    const html = render(
      <Table
        caption="Skjemaer"
        rowHeaders
        columns={[
          { header: "Skjema" },
          { header: "Status" },
          { header: <VisuallyHidden>Handling</VisuallyHidden> },
          { header: "Antall", label: "Tall", numeric: true },
        ]}
        rows={[{ key: "1", cells: ["Midtveis", "Sendt", "Åpne", 3] }]}
      />,
    );
    expect(html).toContain('<table class="ui-table ui-table--stack">');
    expect(html).toContain('<th scope="col" class="ui-table__header">Skjema</th>');
    expect(html).toContain(
      '<tr class="ui-table__row"><th scope="row" class="ui-table__header ui-table__header--row">Midtveis</th>',
    );
    expect(html).toContain('<td class="ui-table__cell" data-label="Status">Sendt</td>');
    // A column whose header is not text has no name beside its values unless it is given one.
    expect(html).toContain('<td class="ui-table__cell">Åpne</td>');
    expect(html).toContain('<td class="ui-table__cell ui-table__cell--numeric" data-label="Tall">3</td>');
    // The table keeps its semantics without ARIA: a role on tr, th or td inside a table is invalid.
    expect(html).not.toMatch(/<(table|thead|tbody|tr|th|td)\b[^>]*\brole=/);
  });
});

describe("buttons and links", () => {
  it("defaults to a submit button and forwards intent name and value", () => {
    const html = render(
      <Button name="intent" value="send" variant="secondary">
        Send
      </Button>,
    );
    expect(html).toMatch(/^<button type="submit" class="ui-button ui-button--secondary"[^>]*>Send<\/button>$/);
    expect(html).toContain('name="intent"');
    expect(html).toContain('value="send"');
  });

  it("renders a link button as a link", () => {
    const html = render(<LinkButton to="/student">Til forsiden</LinkButton>);
    expect(html).toMatch(/^<a class="ui-button"[^>]*href="\/student"[^>]*>Til forsiden<\/a>$/);
  });

  it("renders the skip link, header and load-more link", () => {
    expect(render(<SkipLink />)).toBe('<a href="#main" class="ui-skip-link">Hopp til hovedinnhold</a>');
    expect(render(<SkipLink />, "en")).toContain("Skip to main content");
    const header = render(<Header appName="Praksis OsloMet">Kari</Header>);
    expect(header).toMatch(/^<header class="app-header ui-header">/);
    expect(header).toMatch(/<a class="ui-header__name"[^>]*href="\/"[^>]*>Praksis OsloMet<\/a>/);
    const more = render(<Pagination href="?offset=20" status="Viser 20 av 57" />);
    expect(more).toMatch(/href="\/teacher\/classes\?offset=20"[^>]*>Last inn flere<\/a>/);
    expect(render(<Pagination />)).toBe("");
  });

  it("renders previous and next pages as a named navigation landmark", () => {
    const both = render(
      <Pagination
        navLabel="Sider i søkeresultatet"
        className="app-pages"
        status="Side 2"
        prev={{ href: "/admin/audit#results-heading", label: "Nyere" }}
        href="/admin/audit?page=3#results-heading"
        label="Eldre"
      />,
    );
    expect(both).toMatch(
      /^<nav class="ui-pagination app-pages" aria-label="Sider i søkeresultatet"><p class="ui-pagination__status">Side 2<\/p><a [^>]*>Nyere<\/a><a [^>]*>Eldre<\/a><\/nav>$/,
    );
    expect(both).toMatch(
      /<a rel="prev" class="ui-button ui-button--secondary ui-pagination__link"[^>]*href="\/admin\/audit#results-heading"[^>]*>Nyere</,
    );
    expect(both).toMatch(
      /<a rel="next" class="ui-button ui-button--secondary ui-pagination__link"[^>]*href="\/admin\/audit\?page=3#results-heading"[^>]*>Eldre</,
    );
    // The first page has no previous one; a search path and fragment as an object work as a string does.
    const first = render(
      <Pagination
        navLabel="Sider"
        status="Viser 1–50 av 120"
        href={{ search: "?page=2", hash: "progress" }}
        label="Neste side"
      />,
    );
    expect(first).not.toContain('rel="prev"');
    expect(first).toMatch(/<a rel="next"[^>]*href="\/teacher\/classes\?page=2#progress"[^>]*>Neste side<\/a><\/nav>$/);
    // The last page: only the previous one; a single page with nothing to page to still says where it is.
    const last = render(
      <Pagination navLabel="Sider" status="Viser 51–60 av 60" prev={{ href: "?page=1", label: "Forrige side" }} />,
    );
    expect(last).toMatch(/<a rel="prev"[^>]*>Forrige side<\/a><\/nav>$/);
    expect(last).not.toContain('rel="next"');
    expect(render(<Pagination navLabel="Sider" status="Viser 1–3 av 3" />)).toBe(
      '<nav class="ui-pagination" aria-label="Sider"><p class="ui-pagination__status">Viser 1–3 av 3</p></nav>',
    );
  });
});

describe("content components", () => {
  it("render their structure", () => {
    const html = render(
      <>
        <PageHeading caption="SYK2001">Studenter</PageHeading>
        <AlertBanner variant="warning">Fristen er i morgen</AlertBanner>
        <AlertBanner variant="error" heading="Varsel om fare for ikke bestått" headingLevel={3}>
          Tekst
        </AlertBanner>
        <AlertBanner variant="success" heading="Lagret" role="status">
          Endringene er lagret.
        </AlertBanner>
        <Card title="Student" href="/student" headingLevel={3}>
          Se dine praksisperioder
        </Card>
        <Tag variant="success">Sendt</Tag>
        <Progress id="progress" label="Besvart" value={3} max={10} valueText="3 av 10" />
        <Details summary="Hva betyr nivåene?">Forklaring</Details>
        <SummaryList rows={[{ key: "E-post", value: "kari@example.no" }]} />
        <Dialog title="Slett varsel" closeHref="/teacher">
          Er du sikker?
        </Dialog>
      </>,
    );
    expect(html).toContain(
      '<h1 class="ui-page-heading ui-page-heading--l"><span class="ui-page-heading__caption">SYK2001<!-- --> </span>Studenter</h1>',
    );
    expect(html).toContain("Viktig: </span>Fristen er i morgen");
    // A banner without a role is a plain div, which cannot be named; a live region is named by its heading.
    expect(html).toContain('<div class="ui-alert ui-alert--error"><h3 class="ui-alert__heading" id="');
    expect(html).toMatch(
      /<div class="ui-alert ui-alert--success" role="status" aria-labelledby="([^"]+)"><h2 class="ui-alert__heading" id="\1">Lagret<\/h2>/,
    );
    expect(html).toMatch(/<h3 class="ui-card__title"><a class="ui-card__link"[^>]*href="\/student"/);
    expect(html).toContain('<strong class="ui-tag ui-tag--success">Sendt</strong>');
    expect(html).toContain('<label for="progress" class="ui-progress__label">Besvart</label>');
    expect(html).toMatch(/<progress id="progress" class="ui-progress__bar" value="3" max="10">/);
    expect(html).toContain('<summary class="ui-details__summary">');
    expect(html).toContain('<dt class="ui-summary-list__key">E-post</dt>');
    expect(html).toMatch(
      /<section class="ui-dialog" aria-labelledby="([^"]+)"><div class="ui-dialog__header"><h2 class="ui-dialog__title" id="\1">Slett varsel<\/h2><a class="ui-dialog__close"[^>]*href="\/teacher"[^>]*>Lukk<\/a>/,
    );
  });
});
