/** Chat for the python clients built on OpenAI's `client.chat.completions.create(...)`. */
import { INDENT, pyKwargs } from "./code.js";
import type { SnippetContext } from "./types.js";

/** The chat call and the printing of its answer (or of the streamed deltas); `model` is the id sent. */
export function pythonChat(ctx: SnippetContext, model: string, stream: boolean): string {
	const lines = [`${stream ? "stream" : "completion"} = client.chat.completions.create(`];
	lines.push(...pyKwargs({ model, ...ctx.args }, INDENT));
	if (stream) lines.push(`${INDENT}stream=True,`);
	lines.push(")");
	if (!stream) return `${lines.join("\n")}\n\nprint(completion.choices[0].message)`;
	lines.push(
		"",
		"for chunk in stream:",
		`${INDENT}if chunk.choices:`,
		`${INDENT}${INDENT}print(chunk.choices[0].delta.content or "", end="")`,
	);
	return lines.join("\n");
}
