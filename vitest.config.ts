import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: [
			"packages/*/src/**/*.test.ts",
			"packages/*/test/**/*.test.ts",
			"apps/*/src/**/*.test.{ts,tsx}",
			"apps/*/e2e/**/*.test.ts",
		],
		testTimeout: 30_000,
		hookTimeout: 60_000,
	},
});
