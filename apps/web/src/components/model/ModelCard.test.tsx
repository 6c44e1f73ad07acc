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
		expect(block?.getAttribute("aria-label")).toBe("Code example");
		expect(block?.textContent).toContain("print(");
	});
});
