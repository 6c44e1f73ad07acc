import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
	{ ignores: ["**/dist/**", "**/node_modules/**", "**/coverage/**"] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		languageOptions: {
			globals: {
				console: "readonly",
				process: "readonly",
				URL: "readonly",
				fetch: "readonly",
				setTimeout: "readonly",
				clearTimeout: "readonly",
				TextEncoder: "readonly",
				TextDecoder: "readonly",
				Buffer: "readonly",
			},
		},
		rules: {
			"@typescript-eslint/no-explicit-any": "error",
			"@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
			"@typescript-eslint/consistent-type-imports": "error",
		},
	},
	{
		// React's rules of hooks, exhaustive effect dependencies (also of `useResource`, whose deps are
		// its loader's) and the compiler's checks, including `set-state-in-effect`, as errors: the web app
		// keeps zero findings (a "loading" state is derived, not reset by an effect).
		files: ["apps/web/**/*.{ts,tsx}"],
		plugins: { "react-hooks": reactHooks },
		rules: {
			...reactHooks.configs["recommended-latest"].rules,
			"react-hooks/exhaustive-deps": ["error", { additionalHooks: "^useResource$" }],
			"react-hooks/incompatible-library": "error",
			"react-hooks/unsupported-syntax": "error",
			"react-hooks/set-state-in-effect": "error",
		},
	},
	{
		// The hub's API contract (`@modelhub/hub/api`) is published as declarations only: anything that
		// would exist at run time there would be missing for the web app that imports it.
		files: ["packages/hub/src/api/**/*.ts"],
		rules: {
			"no-restricted-syntax": [
				"error",
				{
					selector:
						"ImportDeclaration[importKind='value'], VariableDeclaration, FunctionDeclaration, ClassDeclaration, TSEnumDeclaration, ExportAllDeclaration[exportKind='value']",
					message: "The API contract holds types only (import type, export type, interfaces).",
				},
			],
		},
	},
);
