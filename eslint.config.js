// ESLint, flat config: typescript-eslint with type information, React's hooks rules and jsx-a11y.
// Prettier owns the layout (eslint-config-prettier switches off every rule that would disagree).
// `npm run lint` fails on a warning; `npm run lint -- --fix` mends what can be mended by itself.
import eslintComments from "@eslint-community/eslint-plugin-eslint-comments/configs";
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/",
      "data/",
      ".react-router/",
      "test-results/",
      "playwright-report/",
      "node_modules/",
      "drizzle/meta/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["*.js", "*.mjs"] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      // A name that starts with _ is left out on purpose (a rest sibling, a place in a signature).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // An async function without an await keeps the promise-returning signature its caller expects
      // (a loader, an interface's method); no-floating-promises and no-misused-promises catch the
      // mistakes this rule is after.
      "@typescript-eslint/require-await": "off",
      // What i18next's t() and getFixedT() give is asserted (as string, as TFunction) while the
      // translation keys are not typed: a key is a plain string until i18next's resource types are on.
      "@typescript-eslint/no-unnecessary-type-assertion": ["error", { typesToIgnore: ["string", "TFunction"] }],
      // React Router's way to end a loader or action early: throw a Response (redirect, 404) or data().
      "@typescript-eslint/only-throw-error": [
        "error",
        {
          allowThrowingUnknown: true,
          allow: [
            { from: "lib", name: "Response" },
            { from: "package", package: "react-router", name: ["DataWithResponseInit", "UNSAFE_DataWithResponseInit"] },
          ],
        },
      ],
    },
  },
  // Plain JavaScript (the server's entry, the scripts) has no types to check against.
  { files: ["**/*.{js,mjs}"], ...tseslint.configs.disableTypeChecked },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A region that scrolls sideways (a wide table, the chart) takes focus so a keyboard can scroll it.
      "jsx-a11y/no-noninteractive-tabindex": ["error", { roles: ["region"], tags: [] }],
    },
  },
  // React's rules of hooks. The plugin's React Compiler rules (immutability, set-state-in-effect,
  // static-components, …) are for code the compiler rewrites; the app does not use the compiler.
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  // Tests read JSON and HTML whose shape is what they assert: `any` is what they are given.
  {
    files: ["**/*.test.{ts,tsx}", "e2e/**", "app/test/**", "bench/**", "scripts/ops/**"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/unbound-method": "off",
      // The rows of raw SQL are cast to what the test reads (drizzle's execute() gives unknown here).
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
      // useDatabaseForTests and its kind are vitest helpers named like hooks, not React's.
      "react-hooks/rules-of-hooks": "off",
    },
  },
  // Sizes a reader holds at once: a route module of about 200 lines (guard, parse, service, answer;
  // its page in components), a function or component of about 120. One that must be longer says why
  // beside it: `// eslint-disable-next-line max-lines-per-function -- <why>` (a disable comment
  // without its reason is an error, below). Tests and e2e flows read top to bottom and are left out.
  {
    files: ["app/routes/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "max-lines": ["error", { max: 200, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    ignores: ["**/*.test.{ts,tsx,mjs}", "e2e/**", "bench/**"],
    rules: { "max-lines-per-function": ["error", { max: 120, skipBlankLines: true, skipComments: true }] },
  },
  // Every eslint-disable comment names its rule and says why (`-- why`), and none outlives its use.
  eslintComments.recommended,
  {
    rules: {
      "@eslint-community/eslint-comments/require-description": ["error", { ignore: ["eslint-enable"] }],
      "@eslint-community/eslint-comments/no-unused-disable": "error",
    },
  },
  prettier,
);
