// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { renderCard } from "./ModelCard";

describe("renderCard", () => {
	it("makes a card's code block reachable and scrollable by keyboard, with a name", () => {
		const html = renderCard(
			"# Use\n\n```python\nprint('a long line that scrolls sideways on a phone')\n```\n",
			"org/model",
			"http://127.0.0.1",
		);
		const page = new DOMParser().parseFromString(html, "text/html");
		const block = page.querySelector("pre");
		expect(block?.getAttribute("tabindex")).toBe("0");
		expect(block?.getAttribute("role")).toBe("region");
		expect(block?.getAttribute("aria-label")).toBe("Code example 1");
		expect(block?.textContent).toContain("print(");
	});

	it("names each code block differently (two regions with one name are ambiguous landmarks)", () => {
		const html = renderCard(
			"```sh\npip install x\n```\n\n```python\nimport x\n```\n",
			"org/model",
			"http://127.0.0.1",
		);
		const page = new DOMParser().parseFromString(html, "text/html");
		const names = [...page.querySelectorAll("pre")].map((block) => block.getAttribute("aria-label"));
		expect(names).toEqual(["Code example 1", "Code example 2"]);
	});
});
