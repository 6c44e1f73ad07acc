import { describe, expect, it } from "vitest";
import { snippetHubUrl, snippetOptions } from "./snippet-hub";

/** A page with the hub's announced URL in its head, or none, as the hub renders it (routes/web.ts). */
function page(origin: string, announced?: string): Document {
	const meta =
		announced === undefined
			? null
			: { getAttribute: (name: string) => (name === "content" ? announced : null) };
	return {
		location: { origin },
		querySelector: (selector: string) => (selector === 'meta[name="modelhub-hub-url"]' ? meta : null),
	} as unknown as Document;
}

describe("snippetHubUrl", () => {
	it("is the Settings hub, else the announced public URL, else the page's origin", () => {
		expect(snippetHubUrl("https://other.example", page("http://127.0.0.1:8080", "https://hub.example"))).toBe(
			"https://other.example",
		);
		expect(snippetHubUrl("", page("http://127.0.0.1:8080", "https://hub.example"))).toBe(
			"https://hub.example",
		);
		expect(snippetHubUrl("", page("http://127.0.0.1:8080"))).toBe("http://127.0.0.1:8080");
		expect(snippetHubUrl("", page("http://127.0.0.1:8080", ""))).toBe("http://127.0.0.1:8080");
	});
});

describe("snippetOptions", () => {
	it("targets the hub for models whose files it serves, the public hub for metadata-only ones", () => {
		expect(snippetOptions({}, "http://127.0.0.1:8080")).toEqual({ hubUrl: "http://127.0.0.1:8080" });
		expect(snippetOptions({ metadataOnly: true }, "http://127.0.0.1:8080")).toEqual({});
	});

	it("gives no option for an address the generators refuse, instead of failing the dialog", () => {
		expect(snippetOptions({}, "not a url")).toEqual({});
		expect(snippetOptions({}, "https://user:secret@hub.example")).toEqual({});
	});
});
