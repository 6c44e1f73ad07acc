import { describe, expect, it } from "vitest";
import { nextCursor } from "../api/people";
import { suggestionsOf } from "./quick-search";
import { modelsSearchHref, moveActive } from "./search-box";

describe("the header search's suggestions", () => {
	const answer = {
		q: "ac",
		models: [{ _id: "1", id: "acme/a b" }],
		modelsCount: 12_345,
		datasets: [{ _id: "4", id: "acme/reviews 2" }],
		datasetsCount: 1,
		users: [{ _id: "2", user: "jack", fullname: "Jack Ace", type: "user" as const, avatarUrl: "" }],
		orgs: [{ _id: "3", name: "acme", fullname: "acme", type: "org" as const, avatarUrl: "" }],
	};

	it("lists models, datasets, users, organisations, then every matching model, each with its page", () => {
		expect(suggestionsOf(answer, " ac ")).toEqual([
			{ kind: "model", label: "acme/a b", href: "/acme/a%20b" },
			{ kind: "dataset", label: "acme/reviews 2", href: "/datasets/acme/reviews%202" },
			{ kind: "user", label: "jack", detail: "Jack Ace", href: "/jack" },
			{ kind: "org", label: "acme", href: "/acme" },
			{ kind: "all", label: "See all 12,345 models for “ac”", href: "/models?search=ac" },
		]);
		expect(suggestionsOf({ ...answer, models: [], modelsCount: 0 }, "ac").at(-1)?.label).toBe(
			"Search models for “ac”",
		);
		expect(suggestionsOf(answer, "  ")).toHaveLength(4);
	});

	it("Enter with no suggestion chosen goes to the models page searched for the text", () => {
		expect(modelsSearchHref(" llama 3 ")).toBe("/models?search=llama%203");
	});

	it("arrow keys move through the options and wrap round", () => {
		expect(moveActive(-1, 3, "ArrowDown")).toBe(0);
		expect(moveActive(2, 3, "ArrowDown")).toBe(0);
		expect(moveActive(-1, 3, "ArrowUp")).toBe(2);
		expect(moveActive(0, 3, "ArrowUp")).toBe(2);
		expect(moveActive(1, 3, "ArrowUp")).toBe(0);
		expect(moveActive(-1, 0, "ArrowDown")).toBe(-1);
	});

	it("member pages follow the hub's Link header", () => {
		expect(nextCursor('<http://hub/api/organizations/a/members?limit=500&cursor=bob>; rel="next"')).toBe(
			"bob",
		);
		expect(nextCursor(null)).toBeUndefined();
		expect(nextCursor('<http://hub/x>; rel="prev"')).toBeUndefined();
	});
});
