import { describe, expect, it } from "vitest";
import { formatCount, formatDate, formatExactCount, formatRelative, formatScore } from "./format";

describe("format", () => {
	it("counts", () => {
		expect(formatCount(999)).toBe("999");
		expect(formatCount(1234)).toBe("1.2K");
		expect(formatCount(2_500_000)).toBe("2.5M");
		expect(formatCount(undefined)).toBe("–");
		expect(formatExactCount(1234567)).toBe("1,234,567");
	});

	it("dates", () => {
		expect(formatDate("2025-03-04T10:00:00.000Z")).toBe("Mar 4, 2025");
		expect(formatDate("not a date")).toBe("–");
		const now = new Date("2025-03-10T00:00:00Z");
		expect(formatRelative("2025-03-07T00:00:00Z", now)).toBe("3 days ago");
		expect(formatRelative("2024-03-01T00:00:00Z", now)).toBe("1 year ago");
		expect(formatRelative("2025-03-09T23:59:30Z", now)).toBe("just now");
		expect(formatRelative(undefined, now)).toBe("–");
	});

	it("scores", () => {
		expect(formatScore(0.98765)).toBe("98.8%");
		expect(formatScore(2)).toBe("100.0%");
	});
});
