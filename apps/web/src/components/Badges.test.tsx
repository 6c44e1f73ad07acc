// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { MirroredBadge } from "./Badges";

afterEach(cleanup);

describe("MirroredBadge", () => {
	it("names the upstream's host and links to the repository's page there", () => {
		render(<MirroredBadge upstream="https://huggingface.co" path="datasets/org/data%20set" />);
		const link = screen.getByRole("link", { name: "Mirrored from huggingface.co" });
		expect(link.getAttribute("href")).toBe("https://huggingface.co/datasets/org/data%20set");
		expect(link.getAttribute("rel")).toBe("noopener noreferrer");
	});

	it("keeps an upstream's path prefix and port, and links nothing that is not http(s)", () => {
		render(<MirroredBadge upstream="http://127.0.0.1:8080/hub/" path="org/model" />);
		expect(screen.getByRole("link", { name: "Mirrored from 127.0.0.1:8080" }).getAttribute("href")).toBe(
			"http://127.0.0.1:8080/hub/org/model",
		);
		cleanup();
		render(<MirroredBadge upstream="javascript:alert(1)" path="org/model" />);
		expect(screen.queryByRole("link")).toBeNull();
		expect(screen.getByText("Mirrored from javascript:alert(1)")).toBeTruthy();
	});
});
