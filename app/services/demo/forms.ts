// The demo's subjects, competence forms and the texts its answers are made of.
import { QUESTION_GROUP_TYPE, type GroupAudience, type QuestionGroupType } from "~/services/platform/db/schema";

export const SUBJECTS = {
  nursingHome: { subjectCode: "SYK2001", name: "Praksis i sykehjem" },
  specialist: { subjectCode: "SYK2002", name: "Praksis i spesialisthelsetjenesten" },
  homeCare: { subjectCode: "SYK1002", name: "Praksis i hjemmesykepleien" },
};

export interface DemoQuestion {
  text: string;
  helpText?: string;
}

export interface DemoGroup {
  name: string;
  type: QuestionGroupType;
  /** Who answers the group; everyone when not given. */
  audience?: GroupAudience;
  questions: DemoQuestion[];
}

export interface DemoForm {
  name: string;
  isMainForm: boolean;
  groups: DemoGroup[];
}

export const MAIN_FORM: DemoForm = {
  name: "Vurdering av kliniske kompetanser",
  isMainForm: true,
  groups: [
    {
      name: "Studentens egenvurdering",
      type: QUESTION_GROUP_TYPE.TextInput,
      // The student's own reflection: staff read the answers, they do not answer it.
      audience: "student",
      questions: [
        { text: "Hva har du lært så langt i praksisperioden?" },
        { text: "Hva vil du arbeide mer med i resten av perioden?" },
        {
          text: "Hvordan opplever du veiledningen du får?",
          helpText: "Tenk på både den daglige veiledningen og veiledningssamtalene.",
        },
      ],
    },
    {
      name: "Pasientobservasjon og vurdering",
      type: QUESTION_GROUP_TYPE.Grading,
      questions: [
        {
          text: "Observerer og vurderer pasientens behov",
          helpText:
            "Studenten bruker systematiske observasjoner (f.eks. NEWS2) og tar hensyn til både fysiske, psykiske og sosiale behov.",
        },
        { text: "Gjenkjenner endringer i pasientens tilstand og handler deretter" },
        {
          text: "Dokumenterer observasjoner og tiltak presist og i tråd med regelverket",
          helpText: "Gjelder dokumentasjon i pasientjournal etter helsepersonelloven.",
        },
      ],
    },
    {
      name: "Sykepleieprosedyrer og pasientsikkerhet",
      type: QUESTION_GROUP_TYPE.Grading,
      questions: [
        { text: "Utfører sykepleieprosedyrer hygienisk og korrekt" },
        {
          text: "Følger rutiner for smittevern og basale smittevernrutiner",
          helpText: "Håndhygiene, bruk av hansker og beskyttelsesutstyr, renhold av utstyr.",
        },
        { text: "Bidrar til trygg legemiddelhåndtering under veiledning" },
      ],
    },
    {
      name: "Kommunikasjon og samhandling",
      type: QUESTION_GROUP_TYPE.Grading,
      questions: [
        { text: "Kommuniserer respektfullt med pasienter og pårørende" },
        { text: "Samarbeider med andre yrkesgrupper om pasientens behandling" },
        { text: "Gir og tar imot tilbakemeldinger på en konstruktiv måte" },
      ],
    },
    {
      name: "Profesjonell holdning og refleksjon",
      type: QUESTION_GROUP_TYPE.Grading,
      questions: [
        {
          text: "Reflekterer over egen praksis og etiske problemstillinger",
          helpText: "Bruk gjerne eksempler fra konkrete pasientsituasjoner.",
        },
        { text: "Tar ansvar for egen læring og oppsøker læringssituasjoner" },
        { text: "Overholder taushetsplikten og opptrer profesjonelt" },
      ],
    },
  ],
};

export const MEDICATION_FORM: DemoForm = {
  name: "Legemiddelhåndtering",
  isMainForm: false,
  groups: [
    {
      name: "Legemiddelhåndtering",
      type: QUESTION_GROUP_TYPE.Grading,
      questions: [
        { text: "Beregner doser korrekt", helpText: "Inkluderer omregning mellom enheter og infusjonshastighet." },
        { text: "Kontrollerer legemidler etter de sju R-ene før administrering" },
        { text: "Observerer og dokumenterer virkning og bivirkning" },
        { text: "Informerer pasienten om legemidlene på en forståelig måte" },
      ],
    },
  ],
};

export const WOUND_CARE_FORM: DemoForm = {
  name: "Sårstell og infeksjonsforebygging",
  isMainForm: false,
  groups: [
    {
      name: "Sårstell og infeksjonsforebygging",
      type: QUESTION_GROUP_TYPE.Grading,
      questions: [
        { text: "Vurderer og dokumenterer sårets tilstand" },
        { text: "Utfører sårstell med aseptisk teknikk" },
        { text: "Veileder pasienten i forebygging av infeksjon" },
      ],
    },
  ],
};

export const SELF_ASSESSMENT_TEXTS = [
  [
    "Jeg har blitt tryggere på å ta imot rapport og prioritere oppgavene mine gjennom vakten.",
    "Jeg har lært mye om observasjon av eldre pasienter med sammensatte sykdomsbilder.",
    "Jeg har fått øvd på stell og mobilisering, og på å snakke med pårørende.",
    "Jeg har lært å bruke NEWS2 og å melde fra når pasientens tilstand endrer seg.",
  ],
  [
    "Jeg vil bli bedre på dokumentasjon og på å skrive presist i journalen.",
    "Jeg vil arbeide mer med legemiddelhåndtering og dosering.",
    "Jeg ønsker å ta mer ansvar for egne pasienter og planlegge dagen selv.",
    "Jeg vil øve mer på samtaler med pasienter som har kognitiv svikt.",
  ],
  [
    "Veiledningen er god, og jeg får tilbakemeldinger fortløpende.",
    "Jeg får god veiledning, men skulle gjerne hatt flere faste veiledningssamtaler.",
    "Veilederen min er tilgjengelig og gir meg utfordringer som passer.",
    "Jeg opplever veiledningen som trygg og lærerik.",
  ],
];

export const SUPERVISOR_COMMENTS = [
  "Gode, systematiske observasjoner. Husk å dokumentere fortløpende.",
  "Viser god forståelse for pasientens situasjon og tar initiativ.",
  "Trenger fortsatt støtte ved endringer i tilstanden, men er på god vei.",
  "Kommuniserer godt med pasientene og er godt likt i avdelingen.",
];

export const STUDENT_COMMENTS = [
  "Her føler jeg at jeg har hatt god framgang.",
  "Dette vil jeg gjerne øve mer på.",
  "Jeg er usikker på om jeg vurderer meg selv riktig her.",
];

/** A demo form as inserted: its id, and its questions' ids with their index in the group. */
export interface SeededQuestion {
  id: number;
  index: number;
}

export interface SeededForm {
  id: number;
  groups: { type: QuestionGroupType; questions: SeededQuestion[] }[];
}
