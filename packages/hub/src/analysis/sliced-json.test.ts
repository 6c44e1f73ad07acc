import { describe, expect, it } from "vitest";
import { JsonTooDeepError, parseJsonObjectSliced, TimeSlices } from "./sliced-json.js";

const options = { maxDepth: 64, sliceMs: 5 };
const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

/** What JSON.parse says of a text: its value, or that it throws. */
function reference(text: string): { value: unknown } | { error: true } {
	try {
		const value = JSON.parse(text) as unknown;
		return typeof value === "object" && value !== null && !Array.isArray(value) ? { value } : { error: true };
	} catch {
		return { error: true };
	}
}

async function sliced(text: string): Promise<{ value: unknown } | { error: true }> {
	try {
		return { value: await parseJsonObjectSliced(bytesOf(text), options) };
	} catch (error) {
		if (!(error instanceof SyntaxError)) throw error;
		return { error: true };
	}
}

/** Same values, same key order (JSON.stringify shows both). */
async function expectSameAsJsonParse(text: string): Promise<void> {
	const expected = reference(text);
	const actual = await sliced(text);
	if ("error" in expected) expect(actual, text).toEqual({ error: true });
	else {
		expect("value" in actual, text).toBe(true);
		if ("value" in actual) expect(JSON.stringify(actual.value), text).toBe(JSON.stringify(expected.value));
	}
}

describe("parseJsonObjectSliced", () => {
	it("gives what JSON.parse gives for objects, and refuses what it refuses", async () => {
		const texts = [
			"{}",
			" { } ",
			'{"a":1}',
			'{"a":1,"b":[1,2,{"c":"}"}],"d":{"e":null}}',
			'{"a":1,"a":2,"b":3}',
			'{"__proto__":{"polluted":true},"x":1}',
			'{"q\\"uote":"x,y","br{ace":"[","esc\\\\":"\\\\"}',
			'{"ü":"é","emoji":"😀"}',
			"{,}",
			'{"a":1,}',
			'{"a":1,,"b":2}',
			'{"a" 1}',
			'{"a":1 "b":2}',
			'{"a":[1}',
			'{"a":{"b":1]}',
			'{"a":1}}',
			'{"a":1} x',
			'{"a":"unterminated}',
			"[1,2]",
			'"text"',
			"{a:1}",
			"",
		];
		for (const text of texts) await expectSameAsJsonParse(text);
		// A byte order mark is dropped, as TextDecoder dropped it before JSON.parse saw the text.
		expect(await sliced('\ufeff{"bom":1}')).toEqual({ value: { bom: 1 } });
	});

	it("agrees with JSON.parse on random objects and random corruptions of them", async () => {
		let seed = 7;
		const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
		const value = (depth: number): unknown => {
			const pick = random();
			if (depth > 3 || pick < 0.3) return Math.floor(random() * 1000);
			if (pick < 0.5) return ["a,b", '"q"', "{[", "\\", "x"][Math.floor(random() * 5)];
			if (pick < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
			return Object.fromEntries(
				Array.from({ length: Math.floor(random() * 4) }, (_, i) => [
					`k${i}${"{,}"[i % 3]}`,
					value(depth + 1),
				]),
			);
		};
		for (let round = 0; round < 400; round++) {
			const text = JSON.stringify(
				Object.fromEntries(
					Array.from({ length: 1 + Math.floor(random() * 6) }, (_, i) => [`m${i}`, value(1)]),
				),
			);
			await expectSameAsJsonParse(text);
			const at = Math.floor(random() * text.length);
			const corrupted = text.slice(0, at) + ',{}[]":\\ '[Math.floor(random() * 10)] + text.slice(at + 1);
			await expectSameAsJsonParse(corrupted);
			await expectSameAsJsonParse(text.slice(0, at));
		}
	});

	it("parses a large object (and an object member too large for one batch) in many slices", async () => {
		const tensors = Object.fromEntries(
			Array.from({ length: 100_000 }, (_, i) => [
				`model.layers.${i}.weight`,
				{ dtype: "F16", shape: [4, 4], data_offsets: [i * 32, i * 32 + 32] },
			]),
		);
		const text = JSON.stringify({ __metadata__: { format: "pt" }, weight_map: tensors, ...tensors });
		const slices = new TimeSlices(1);
		const parsed = await parseJsonObjectSliced(bytesOf(text), options, slices);
		expect(JSON.stringify(parsed)).toBe(text);
		expect(slices.yields).toBeGreaterThan(1);
	});

	it("refuses nesting deeper than allowed before parsing, and text that is not UTF-8", async () => {
		await expect(
			parseJsonObjectSliced(bytesOf('{"a":[[[1]]]}'), { maxDepth: 3, sliceMs: 5 }),
		).rejects.toThrow(JsonTooDeepError);
		await expect(parseJsonObjectSliced(bytesOf('{"a":[[1]]}'), { maxDepth: 3, sliceMs: 5 })).resolves.toEqual(
			{
				a: [[1]],
			},
		);
		const broken = new Uint8Array([...bytesOf('{"a":"'), 0xff, ...bytesOf('"}')]);
		await expect(parseJsonObjectSliced(broken, options)).rejects.toThrow(TypeError);
	});
});
