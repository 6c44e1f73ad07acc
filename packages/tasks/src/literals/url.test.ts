import { describe, expect, it } from "vitest";
import { ADVERSARIAL_TEXTS } from "../../../../test-support/parsers.js";
import { urlPath, urlQueryValue } from "./url.js";

const TEXTS = [
	...ADVERSARIAL_TEXTS,
	"org/model-name_v1.5",
	"a&b=c#d?e+f g%20",
	"../../etc/passwd",
	"org/./x",
	"a//b",
	"\ud800 lone surrogate",
	"🤗/東京",
];

describe("url literals", () => {
	it("keep every text inside its query value", () => {
		for (const text of TEXTS) {
			const url = new URL(`x-app://open?model=${urlQueryValue(text)}&next=1`);
			expect(url.searchParams.get("model"), JSON.stringify(text)).toBe(text.toWellFormed());
			expect([...url.searchParams.keys()]).toEqual(["model", "next"]);
			expect(url.hash).toBe("");
		}
	});

	it("keep every text inside the path, below its base, without dot steps", () => {
		for (const text of TEXTS) {
			const url = new URL(`x-app://models/huggingface/${urlPath(text)}?next=1`);
			expect(url.pathname.startsWith("/huggingface/"), JSON.stringify(text)).toBe(true);
			const tail = url.pathname.slice("/huggingface/".length);
			expect(tail.split("/").map(decodeURIComponent).join("/")).toBe(text.toWellFormed());
			expect(url.search).toBe("?next=1");
		}
	});

	it("leave ordinary ids readable and refuse ids that are only dots", () => {
		expect(urlPath("org/model-name_v1.5")).toBe("org/model-name_v1.5");
		expect(urlQueryValue("org/model-name_v1.5")).toBe("org/model-name_v1.5");
		expect(urlPath("../x")).toBe("..%2Fx");
		expect(() => urlPath("..")).toThrow('Cannot write ".." as a URL path');
	});
});
