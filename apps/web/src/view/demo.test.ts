import { describe, expect, it } from "vitest";
import { chartBars, tokenSegments, tokenTypes } from "./demo";

describe("tokenSegments", () => {
	it("cuts text into plain and typed segments", () => {
		const text = "Ada Lovelace lived in London.";
		expect(
			tokenSegments(text, [
				{ type: "GPE", start: 22, end: 28 },
				{ type: "PERSON", start: 0, end: 12 },
			]),
		).toEqual([
			{ text: "Ada Lovelace", type: "PERSON" },
			{ text: " lived in " },
			{ text: "London", type: "GPE" },
			{ text: "." },
		]);
	});

	it("clips overlapping and out-of-range tokens so every character appears once", () => {
		const text = "abcdef";
		const segments = tokenSegments(text, [
			{ type: "A", start: 0, end: 4 },
			{ type: "B", start: 2, end: 99 },
			{ type: "C", start: -5, end: 1 },
		]);
		expect(segments.map((segment) => segment.text).join("")).toBe(text);
		expect(segments).toEqual([
			{ text: "a", type: "C" },
			{ text: "bcd", type: "A" },
			{ text: "ef", type: "B" },
		]);
	});

	it("lists token types in order of first appearance", () => {
		expect(tokenTypes([{ type: "X" }, { type: "Y" }, { type: "X" }])).toEqual(["X", "Y"]);
	});
});

describe("chartBars", () => {
	it("sorts by score and clamps widths", () => {
		expect(
			chartBars([
				{ label: "low", score: 0.1234 },
				{ label: "high", score: 0.8 },
				{ label: "odd", score: 1.7 },
				{ label: "nan", score: Number.NaN },
			]),
		).toEqual([
			{ label: "odd", score: 1.7, percent: 100 },
			{ label: "high", score: 0.8, percent: 80 },
			{ label: "low", score: 0.1234, percent: 12.3 },
		]);
	});
});
