/** sh / curl: the raw HTTP call our client makes; every value is one quoted shell word. */
import * as literals from "@modelhub/tasks/literals";
import { shAuthorizationHeader } from "../auth.js";
import { FILE_DATA_URL, INDENT, json } from "../code.js";
import { answeredAtOnce } from "../kinds.js";
import type { ClientTemplates, SnippetClient, SnippetContext, Template } from "../types.js";

const CONTINUATION = " \\\n";

function header(name: string, value: string): string {
	return `-H ${literals.shQuote(`${name}: ${value}`)}`;
}

/** The options after the URL: method, headers, then the body option. */
function options(ctx: SnippetContext, contentType: string | undefined, body: string): string[] {
	const list = [`-X ${literals.shWord(ctx.request.method)}`];
	if (ctx.request.authorization) list.push(`-H ${shAuthorizationHeader(ctx.request.authorization)}`);
	if (contentType) list.push(header("Content-Type", contentType));
	for (const [name, value] of ctx.request.headers) {
		if (name !== "Content-Type" || !contentType) list.push(header(name, value));
	}
	list.push(body);
	return list;
}

function command(ctx: SnippetContext, contentType: string | undefined, body: string, before = ""): string {
	const opts = options(ctx, contentType, body);
	return `${before}curl ${literals.shWord(ctx.request.url)}${CONTINUATION}${opts.map((o) => INDENT + o).join(CONTINUATION)}`;
}

/** printf format text: `%` and `\` are special to printf, so they are doubled. */
function printfFormat(text: string): string {
	return text.replace(/[%\\]/g, "$&$&");
}

const render: Template = (ctx) => {
	const file = ctx.file;
	if (file?.encoding === "multipart") {
		// curl writes the multipart Content-Type itself; --form-string keeps a field's value as it is.
		const form = ctx.request.form ?? { fileName: file.name, fields: [] };
		const parts = [
			`-F ${literals.shQuote(`file=@${file.name};type=${file.contentType};filename=${form.fileName}`)}`,
			...form.fields.map(([name, value]) => `--form-string ${literals.shQuote(`${name}=${value}`)}`),
		];
		return command(ctx, undefined, parts.join(CONTINUATION + INDENT));
	}
	if (file?.encoding === "binary") {
		return command(ctx, file.contentType, `--data-binary ${literals.shWord(`@${file.name}`)}`);
	}
	if (file?.encoding === "data-url") {
		// The file goes into the JSON as a data: URL, so the body is built with printf and read from stdin.
		const marker = literals.jsonText(FILE_DATA_URL);
		const [head = "", tail = ""] = literals.jsonText(ctx.request.body).split(marker);
		const format = `${printfFormat(head)}"${printfFormat(`data:${file.contentType};base64,`)}%s"${printfFormat(tail)}`;
		const base64 = `"$(base64 < ${literals.shWord(file.name)} | tr -d '\\n')"`;
		return command(ctx, undefined, "-d @-", `printf ${literals.shQuote(format)} ${base64} | `);
	}
	return command(ctx, undefined, `-d ${literals.shQuote(json(ctx.request.body, INDENT))}`);
};

const templates: ClientTemplates = {
	basic: render,
	basicAudio: render,
	basicImage: render,
	conversational: render,
	conversationalStream: render,
	zeroShotClassification: render,
};

export const curl: SnippetClient = { language: "sh", client: "curl", templates, offers: answeredAtOnce };
