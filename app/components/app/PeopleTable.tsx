import type { ReactNode } from "react";
import { Link } from "react-router";
import { Table, Tag } from "~/components/ui";

export interface Person {
  userId: number;
  displayName: string;
  email: string;
  isActive: boolean;
}

/**
 * People as a table: the name (a link, with a tag when deactivated) as the row header, the e-mail,
 * then the caller's columns. Says `empty` instead of an empty table.
 */
export function PeopleTable<P extends Person>({
  caption,
  empty,
  people,
  href,
  nameHeader,
  emailHeader,
  deactivatedLabel,
  columns = [],
  className,
}: {
  caption: string;
  empty: string;
  people: P[];
  href: (person: P) => string;
  nameHeader: string;
  emailHeader: string;
  deactivatedLabel: string;
  columns?: { header: string; numeric?: boolean; cell: (person: P) => ReactNode }[];
  className?: string;
}) {
  if (people.length === 0) return <p>{empty}</p>;
  return (
    <Table
      className={className}
      caption={caption}
      captionHidden
      rowHeaders
      columns={[
        { header: nameHeader },
        { header: emailHeader },
        ...columns.map((c) => ({ header: c.header, numeric: c.numeric })),
      ]}
      rows={people.map((person) => ({
        key: String(person.userId),
        inactive: !person.isActive,
        cells: [
          <>
            <Link to={href(person)}>{person.displayName}</Link>
            {person.isActive ? null : (
              <>
                {" "}
                <Tag variant="neutral">{deactivatedLabel}</Tag>
              </>
            )}
          </>,
          person.email,
          ...columns.map((c) => c.cell(person)),
        ],
      }))}
    />
  );
}
