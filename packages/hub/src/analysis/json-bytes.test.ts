import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	afterByteOrderMark,
	BACKSLASH,
	CLOSE_ARRAY,
	CLOSE_OBJECT,
	COLON,
	COMMA,
	isJsonSpace,
	OPEN_ARRAY,
	OPEN_OBJECT,
	QUOTE,
} from "./json-bytes.js";

const SYNTAX: ReadonlyArray<[string, number]> = [
	['"', QUOTE],
	["\\", BACKSLASH],
	["{", OPEN_OBJECT],
	["}", CLOSE_OBJECT],
	["[", OPEN_ARRAY],
	["]", CLOSE_ARRAY],
	[",", COMMA],
	[":", COLON],
];

describe("JSON syntax bytes", () => {
	it("are the bytes of JSON's structural characters, quote and escape", () => {
		for (const [character, byte] of SYNTAX) expect(byte).toBe(Buffer.from(character)[0]);
	});

	it("count as whitespace exactly JSON's four", () => {
		const spaces = Array.from({ length: 256 }, (_, byte) => byte).filter((byte) => isJsonSpace(byte));
		expect(spaces).toEqual([0x09, 0x0a, 0x0d, 0x20]);
		expect(isJsonSpace(undefined)).toBe(false);
	});

	it("skip a UTF-8 byte order mark, and nothing else", () => {
		expect(afterByteOrderMark(Buffer.from("\ufeff{}"))).toBe(3);
		expect(afterByteOrderMark(Buffer.from("{}"))).toBe(0);
		expect(afterByteOrderMark(Buffer.from([0xef, 0xbb]))).toBe(0);
	});

	// A code-review note on issue 21: sliced-json.ts redeclared json-depth.ts's byte constants.
	it("are declared in json-bytes.ts only: no other analysis module declares its own", () => {
		const dir = import.meta.dirname;
		const declared = new RegExp(
			`const\\s+\\w+\\s*=\\s*0x(${SYNTAX.map(([, byte]) => byte.toString(16).padStart(2, "0")).join("|")})\\b`,
			"i",
		);
		const redeclaring = readdirSync(dir)
			.filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && name !== "json-bytes.ts")
			.filter((name) => declared.test(readFileSync(join(dir, name), "utf8")));
		expect(redeclaring).toEqual([]);
	});
});
