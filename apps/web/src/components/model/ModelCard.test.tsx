// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { renderCard, repoPath } from "./ModelCard";

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

	it("wraps a table in a named scroller in the tab order, keeping the table a table", () => {
		const html = renderCard(
			"| a | b |\n| - | - |\n| 1 | 2 |\n\n| c |\n| - |\n| 3 |\n",
			"org/model",
			"http://127.0.0.1",
		);
		const page = new DOMParser().parseFromString(html, "text/html");
		const scrollers = [...page.querySelectorAll(".card-table-scroll")];
		expect(scrollers.map((scroller) => scroller.getAttribute("aria-label"))).toEqual(["Table 1", "Table 2"]);
		for (const scroller of scrollers) {
			expect(scroller.getAttribute("role")).toBe("region");
			expect(scroller.getAttribute("tabindex")).toBe("0");
			expect(scroller.firstElementChild?.tagName).toBe("TABLE");
		}
		expect(page.querySelector("td")?.textContent).toBe("1");
		const comment = renderCard("| a |\n| - |\n| 1 |\n", "org/model", "", { comment: { label: "Comment 2" } });
		expect(
			new DOMParser()
				.parseFromString(comment, "text/html")
				.querySelector(".card-table-scroll")
				?.getAttribute("aria-label"),
		).toBe("Comment 2, table 1");
	});

	it("points relative links and pictures at the revision shown and the file's folder, not main's root", () => {
		const html = renderCard(
			"[guide](./guide.md) [top](/LICENSE) [up](../config.json#x)\n\n![chart](img/chart.png)\n",
			"org/model",
			"http://127.0.0.1",
			{ revision: "v1.0", folder: "docs" },
		);
		const page = new DOMParser().parseFromString(html, "text/html");
		expect([...page.querySelectorAll("a")].map((link) => link.getAttribute("href"))).toEqual([
			"/org/model/resolve/v1.0/docs/guide.md",
			"/org/model/resolve/v1.0/LICENSE",
			"/org/model/resolve/v1.0/config.json",
		]);
		expect(page.querySelector("img")?.getAttribute("src")).toBe("/org/model/resolve/v1.0/docs/img/chart.png");
		// The model card (README.md of main) keeps its links at main's root.
		const card = new DOMParser().parseFromString(renderCard("![a](a.png)", "org/model", ""), "text/html");
		expect(card.querySelector("img")?.getAttribute("src")).toBe("/org/model/resolve/main/a.png");
	});

	it("resolves a relative path against a folder", () => {
		expect(repoPath("./b.png")).toBe("b.png");
		expect(repoPath("/b.png", "docs")).toBe("b.png");
		expect(repoPath("../../b.png", "a/c")).toBe("b.png");
		expect(repoPath("x/../y.md?raw=1", "docs")).toBe("docs/y.md");
	});
});
