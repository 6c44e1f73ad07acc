// @vitest-environment jsdom
import { renderHook, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useResource, type Resource } from "./useResource";

describe("useResource", () => {
	it("never renders one id's answer for another: loading is derived from the deps, not reset by an effect", async () => {
		const rendered: Array<{ id: number; resource: Resource<string> }> = [];
		const { rerender } = renderHook(
			({ id }) => {
				const resource = useResource(async () => `answer ${id}`, [id]);
				rendered.push({ id, resource });
				return resource;
			},
			{ initialProps: { id: 1 } },
		);
		await waitFor(() => expect(rendered.at(-1)?.resource.data).toBe("answer 1"));
		rerender({ id: 2 });
		expect(rendered.at(-1)?.resource.status).toBe("loading");
		await waitFor(() => expect(rendered.at(-1)?.resource.data).toBe("answer 2"));
		for (const { id, resource } of rendered) {
			if (resource.status === "ready") expect(resource.data).toBe(`answer ${id}`);
		}
	});

	it("loads again when `reload` changes, and keeps an error as an Error", async () => {
		let calls = 0;
		const { result, rerender } = renderHook(
			({ version }) =>
				useResource(
					async () => {
						calls += 1;
						if (calls === 2) throw "refused";
						return calls;
					},
					[],
					version,
				),
			{ initialProps: { version: 0 } },
		);
		await waitFor(() => expect(result.current.data).toBe(1));
		rerender({ version: 0 });
		expect(result.current.data).toBe(1);
		rerender({ version: 1 });
		await waitFor(() => expect(result.current.status).toBe("error"));
		expect(result.current.error?.message).toBe("refused");
		expect(calls).toBe(2);
	});
});
