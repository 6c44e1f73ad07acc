import { describe, expect, it } from "vitest";
import type { ModelData } from "../../libraries/types.js";
import { getLocalAppSnippets } from "../index.js";
import { mlxLmApps } from "./mlx-lm.js";

const mlx = (tags: string[]): ModelData => ({
	id: "mlx-community/llm-4bit",
	library_name: "mlx",
	tags: ["mlx", ...tags],
	pipeline_tag: "text-generation",
});

describe("MLX LM", () => {
	it("chats with conversational models and serves them on port 8080", () => {
		const [chat, server] = getLocalAppSnippets(mlxLmApps["mlx-lm"], mlx(["conversational"]));
		expect(chat).toMatchObject({
			title: "Chat in the terminal",
			content: ["mlx_lm.chat --model mlx-community/llm-4bit"],
		});
		expect(chat!.setup).toContain("pip install mlx-lm");
		expect(server!.content[0]).toBe(
			"# Serves on http://localhost:8080:\nmlx_lm.server --model mlx-community/llm-4bit",
		);
		expect(server!.content[1]).toContain("curl http://localhost:8080/v1/chat/completions");
	});

	it("generates from a prompt with other models", () => {
		const [generate, server] = getLocalAppSnippets(mlxLmApps["mlx-lm"], mlx([]));
		expect(generate!.content).toEqual([
			"mlx_lm.generate --model mlx-community/llm-4bit --prompt 'Once upon a time'",
		]);
		expect(server!.content[1]).toContain("curl http://localhost:8080/v1/completions");
	});

	it("is offered for mlx-lm text models only", () => {
		const show = mlxLmApps["mlx-lm"].displayOnModelPage;
		expect(show(mlx([]))).toBe(true);
		expect(show({ ...mlx([]), library_name: "cartesia_mlx" })).toBe(false);
		expect(show({ ...mlx([]), pipeline_tag: "automatic-speech-recognition" })).toBe(false);
		expect(show({ ...mlx([]), tags: [] })).toBe(false);
	});
});
