export interface PrivacyTextProps {
  intro: string;
  sections: { heading: string; paragraphs: string[] }[];
  headingLevel: 2 | 3;
}

/** The institution's privacy notice, shared by the policy page and the consent gate. */
export function PrivacyText({ intro, sections, headingLevel }: PrivacyTextProps) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <>
      <p className="app-lead">{intro}</p>
      {sections.map((section) => (
        <section key={section.heading}>
          <Heading>{section.heading}</Heading>
          {section.paragraphs.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </section>
      ))}
    </>
  );
}
