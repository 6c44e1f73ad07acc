import { describe, expect, it } from "vitest";
import {
	APP_SECTIONS,
	FUTURE_SECTIONS,
	NESTED_APP_SECTIONS,
	RESERVED_FIRST_SEGMENTS,
	SERVER_SECTIONS,
} from "./index.js";

describe("reserved first segments", () => {
	it("reserve every section of the app and of the server, each once, in lower case", () => {
		for (const section of [...APP_SECTIONS, ...NESTED_APP_SECTIONS, ...SERVER_SECTIONS, ...FUTURE_SECTIONS]) {
			expect(RESERVED_FIRST_SEGMENTS).toContain(section);
		}
		expect(new Set(RESERVED_FIRST_SEGMENTS).size).toBe(RESERVED_FIRST_SEGMENTS.length);
		for (const segment of RESERVED_FIRST_SEGMENTS) expect(segment).toBe(segment.toLowerCase());
	});
});
