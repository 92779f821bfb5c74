import { describe, expect, test } from "vitest";
import {
  answerError,
  answersGroup,
  answerToken,
  COMMENT_LIMIT,
  EMPTY,
  missingGrades,
  normaliseContent,
  ownGroups,
  pageOf,
  planWrites,
  readPosted,
  resumePage,
  TEXT_ANSWER_LIMIT,
  type AnsweringGroup,
} from "./answering";

const grading: AnsweringGroup = {
  id: 1,
  name: "Observasjon",
  type: "grading",
  options: ["Selvstendig", "Delvis selvstendig", "Veiledet", "Assistert", "Uselvstendig", "Ikke relevant"],
  questions: [
    { id: 11, text: "Observerer", helpText: null },
    { id: 12, text: "Vurderer", helpText: "Hjelp" },
  ],
};
const text: AnsweringGroup = {
  id: 2,
  name: "Refleksjon",
  type: "text",
  options: [],
  questions: [{ id: 21, text: "Hva har du lært?", helpText: null }],
};

describe("ownGroups", () => {
  test("the student answers the student's and everyone's groups, staff the staff's and everyone's; no audience is everyone's", () => {
    const groups = [
      { ...text, audience: "student" as const },
      { ...grading, audience: "all" as const },
      { ...grading, id: 3, audience: "staff" as const },
      { ...grading, id: 4 },
    ];
    expect(ownGroups(groups, "student").map((g) => g.id)).toEqual([2, 1, 4]);
    expect(ownGroups(groups, "staff").map((g) => g.id)).toEqual([1, 3, 4]);
    expect(answersGroup({ audience: "student" }, "staff")).toBe(false);
    expect(answersGroup({ audience: "staff" }, "student")).toBe(false);
  });
});

describe("answerToken", () => {
  test("is the same for the same content and differs for any change, including null against empty", () => {
    expect(answerToken({ value: "2", comment: "Bra" })).toBe(answerToken({ value: "2", comment: "Bra" }));
    const variants = [
      EMPTY,
      { value: "2", comment: null },
      { value: "3", comment: null },
      { value: "2", comment: "Bra" },
      { value: "2", comment: "Bra." },
      { value: null, comment: "2" },
      { value: "", comment: null },
    ];
    expect(new Set(variants.map(answerToken)).size).toBe(variants.length);
  });
});

describe("normaliseContent", () => {
  test("blank is no answer; text keeps its line breaks, as \\n", () => {
    expect(normaliseContent("  ", "\n")).toEqual(EMPTY);
    expect(normaliseContent(undefined, null)).toEqual(EMPTY);
    expect(normaliseContent("3", " Godt\r\njobbet ")).toEqual({ value: "3", comment: " Godt\njobbet " });
  });
});

describe("answerError", () => {
  test("a grade must be one of the group's labels, by its index as the page sends it", () => {
    for (const ok of ["0", "4", "5"]) expect(answerError(grading, { value: ok, comment: null }), ok).toBeNull();
    for (const bad of ["6", "-1", "03", "3.0", "abc", " 2", "99", "Veiledet"]) {
      expect(answerError(grading, { value: bad, comment: null }), bad).toBe("invalidValue");
    }
    expect(answerError(grading, EMPTY)).toBeNull();
  });

  test("length is counted in characters, as the database counts them: 2000 emoji are 2000", () => {
    expect(answerError(grading, { value: "1", comment: "😀".repeat(COMMENT_LIMIT) })).toBeNull();
    expect(answerError(grading, { value: "1", comment: "😀".repeat(COMMENT_LIMIT + 1) })).toBe("commentTooLong");
  });

  test("a comment may have 2000 characters, not 2001; a text answer 10 000", () => {
    expect(answerError(grading, { value: "1", comment: "x".repeat(COMMENT_LIMIT) })).toBeNull();
    expect(answerError(grading, { value: "1", comment: "x".repeat(COMMENT_LIMIT + 1) })).toBe("commentTooLong");
    expect(answerError(text, { value: "x".repeat(TEXT_ANSWER_LIMIT), comment: null })).toBeNull();
    expect(answerError(text, { value: "x".repeat(TEXT_ANSWER_LIMIT + 1), comment: null })).toBe("textTooLong");
  });
});

describe("planWrites: two tabs or devices never lose an answer silently", () => {
  const stored = new Map([[11, { value: "2", comment: null }]]);
  const base = answerToken({ value: "2", comment: null });

  test("a question this page did not change is left alone, whatever is stored now", () => {
    const plan = planWrites(
      [{ questionId: 11, value: "2", comment: null, base }],
      new Map([[11, { value: "4", comment: null }]]),
    );
    expect(plan.writes).toEqual([]);
    expect(plan.conflicts).toEqual([]);
    expect(plan.tokens.get(11)).toBe(answerToken({ value: "4", comment: null }));
  });

  test("a change made here only is written", () => {
    const plan = planWrites([{ questionId: 11, value: "3", comment: "Bedre", base }], stored);
    expect(plan.writes).toEqual([{ questionId: 11, content: { value: "3", comment: "Bedre" } }]);
    expect(plan.tokens.get(11)).toBe(answerToken({ value: "3", comment: "Bedre" }));
  });

  test("the same change made in both places is no conflict", () => {
    const plan = planWrites(
      [{ questionId: 11, value: "3", comment: null, base }],
      new Map([[11, { value: "3", comment: null }]]),
    );
    expect(plan.writes).toEqual([]);
    expect(plan.conflicts).toEqual([]);
  });

  test("different changes to one question are a conflict: nothing written, both shown, the stored one becomes the base", () => {
    const elsewhere = { value: "4", comment: "Fra nettbrettet" };
    const plan = planWrites([{ questionId: 11, value: "3", comment: null, base }], new Map([[11, elsewhere]]));
    expect(plan.writes).toEqual([]);
    expect(plan.conflicts).toEqual([{ questionId: 11, stored: elsewhere, posted: { value: "3", comment: null } }]);
    expect(plan.tokens.get(11)).toBe(answerToken(elsewhere));
    // Saving again from that base is a deliberate choice: it overwrites.
    const again = planWrites(
      [{ questionId: 11, value: "3", comment: null, base: answerToken(elsewhere) }],
      new Map([[11, elsewhere]]),
    );
    expect(again.writes).toEqual([{ questionId: 11, content: { value: "3", comment: null } }]);
  });

  test("a first answer where none was stored is written; per question, independently", () => {
    const plan = planWrites(
      [
        { questionId: 12, value: "1", comment: null, base: answerToken(EMPTY) },
        { questionId: 11, value: "0", comment: null, base: answerToken({ value: "1", comment: null }) },
      ],
      stored,
    );
    expect(plan.writes).toEqual([{ questionId: 12, content: { value: "1", comment: null } }]);
    expect(plan.conflicts.map((c) => c.questionId)).toEqual([11]);
  });
});

describe("resumePage", () => {
  const groups = [
    { id: 1, questions: [{ id: 11 }, { id: 12 }] },
    { id: 2, questions: [{ id: 21 }] },
    { id: 3, questions: [{ id: 31 }, { id: 32 }] },
  ];
  const all = () => true;
  test("opens the first page with a question not answered, skipping pages the viewer does not answer", () => {
    expect(resumePage(groups, all, () => false)).toBe(1);
    expect(resumePage(groups, all, (id) => id < 20)).toBe(2);
    expect(resumePage(groups, all, (id) => id !== 32)).toBe(3);
    expect(
      resumePage(
        groups,
        (g) => g.id !== 2,
        (id) => id < 20,
      ),
    ).toBe(3);
  });
  test("opens the first page when everything is answered, or there are no pages", () => {
    expect(resumePage(groups, all, () => true)).toBe(1);
    expect(
      resumePage(
        groups,
        () => false,
        () => false,
      ),
    ).toBe(1);
    expect(resumePage([], all, () => false)).toBe(1);
  });
});

describe("missingGrades and pageOf", () => {
  test("every grading question needs a value to send; 'Ikke relevant' counts; text questions do not", () => {
    expect(missingGrades([grading, text], new Map())).toEqual([11, 12]);
    expect(
      missingGrades(
        [grading, text],
        new Map([
          [11, { value: "5", comment: null }],
          [12, { value: null, comment: "bare kommentar" }],
        ]),
      ),
    ).toEqual([12]);
    expect(
      missingGrades(
        [grading, text],
        new Map([
          [11, { value: "0", comment: null }],
          [12, { value: "1", comment: null }],
        ]),
      ),
    ).toEqual([]);
  });

  test("?group= within the form, anything else the first page", () => {
    expect(pageOf("3", 5)).toBe(3);
    for (const bad of [null, "", "0", "6", "-1", "2.5", "x", "99999"]) expect(pageOf(bad, 5), String(bad)).toBe(1);
  });
});

describe("readPosted", () => {
  const form = (entries: [string, string | Blob][]) => {
    const data = new FormData();
    for (const [name, value] of entries) data.append(name, value);
    return data;
  };

  test("reads each question's base, answer and comment; blank is no answer", () => {
    expect(
      readPosted(
        form([
          ["intent", "next"],
          ["b:11", "tok"],
          ["a:11", "2"],
          ["c:11", "  "],
          ["b:21", "tok2"],
          ["c:21", "Kommentar"],
        ]),
      ),
    ).toEqual([
      { questionId: 11, base: "tok", value: "2", comment: null },
      { questionId: 21, base: "tok2", value: null, comment: "Kommentar" },
    ]);
    expect(readPosted(form([["intent", "next"]]))).toEqual([]);
  });

  test("a repeated field, a file, an answer without its base, or a malformed id is a malformed post", () => {
    expect(
      readPosted(
        form([
          ["b:11", "t"],
          ["a:11", "1"],
          ["a:11", "2"],
        ]),
      ),
    ).toBeNull();
    expect(
      readPosted(
        form([
          ["b:11", "t"],
          ["b:11", "t"],
        ]),
      ),
    ).toBeNull();
    expect(
      readPosted(
        form([
          ["b:11", "t"],
          ["c:11", new Blob(["x"])],
        ]),
      ),
    ).toBeNull();
    expect(readPosted(form([["a:11", "1"]]))).toBeNull();
    expect(readPosted(form([["b:x", "t"]]))).toBeNull();
    expect(readPosted(form([["b:12345678901", "t"]]))).toBeNull();
    expect(readPosted(form(Array.from({ length: 501 }, (_, i) => [`b:${i + 1}`, "t"] as [string, string])))).toBeNull();
  });
});
