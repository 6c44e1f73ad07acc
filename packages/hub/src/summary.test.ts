import { describe, expect, it } from "vitest";
import { catalogueSummary } from "./summary.js";

describe("catalogueSummary", () => {
	it("counts pipeline types and task pages per modality", () => {
		const text = catalogueSummary();
		expect(text).toMatch(/Computer Vision\s+18 pipeline types/);
		expect(text).toMatch(/Total\s+55 pipeline types,\s+42 task pages/);
	});
});
