import { APP_SECTIONS, RESERVED_FIRST_SEGMENTS } from "@modelhub/tasks/repositories";
import { describe, expect, it } from "vitest";
import { RESERVED_ACCOUNT_NAMES } from "./vocabulary.js";

describe("reserved account names", () => {
	it("are the shared list of reserved first segments, which holds every page section of the web app", () => {
		// The same array, not a copy: the web app's router reads this list too (apps/web/src/app-sections.ts).
		expect(RESERVED_ACCOUNT_NAMES).toBe(RESERVED_FIRST_SEGMENTS);
		for (const section of APP_SECTIONS) expect(RESERVED_ACCOUNT_NAMES).toContain(section);
	});
});
