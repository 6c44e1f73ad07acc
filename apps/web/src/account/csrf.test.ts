import { describe, expect, it } from "vitest";
import { cookieIn } from "./csrf";

describe("cookieIn", () => {
	it("finds one cookie among others, and nothing for an empty or missing one", () => {
		expect(cookieIn("a=1; modelhub_csrf=abc_-9; b=2", "modelhub_csrf")).toBe("abc_-9");
		expect(cookieIn("xmodelhub_csrf=1", "modelhub_csrf")).toBeUndefined();
		expect(cookieIn("modelhub_csrf=", "modelhub_csrf")).toBeUndefined();
		expect(cookieIn("", "modelhub_csrf")).toBeUndefined();
	});
});
