/**
 * Snippets for a model whose files live on another hub than the public one (a self-hosted ModelHub, a
 * mirror): the option every snippet generator takes, and the lines that point each kind of client there.
 *
 * huggingface_hub reads `HF_ENDPOINT` once, when it is first imported (`constants.py`:
 * `ENDPOINT = os.getenv("HF_ENDPOINT", _HF_DEFAULT_ENDPOINT).rstrip("/")`, in 1.33 and 2.0 alike), so
 * Python snippets set it before their first import; every library that downloads through huggingface_hub
 * (transformers, sentence-transformers, timm, peft, diffusers…) follows it. The token comes from
 * `HF_TOKEN` (or the one `hf auth login` saved) and is never written into a snippet.
 */
import type { ModelData } from "../libraries/types.js";
import { pyString } from "../literals/python.js";
import { shWord } from "../literals/shell.js";

/** The public hub: snippets for models it serves need no endpoint. */
export const PUBLIC_HUB_URL = "https://huggingface.co";

/** Options every snippet generator (libraries, local apps) takes as its optional last argument. */
export interface SnippetOptions {
	/**
	 * The hub that serves the model's files, e.g. `"https://hub.example.com"` (the name of the same
	 * option in `@huggingface/hub`'s functions). Absent, or the public hub's URL: snippets load from
	 * the public hub, as without options. Another hub: snippets point their clients at it
	 * (`HF_ENDPOINT`, or what the client reads instead) and apps that can only reach the public hub
	 * are not offered. An http(s) URL without user name, password, query or fragment; a path is kept.
	 */
	hubUrl?: string;
}

/** A bad `hubUrl`: the message says what is wrong, never echoing a user name or password. */
export class HubUrlError extends TypeError {
	constructor(problem: string) {
		super(`hubUrl ${problem}`);
		this.name = "HubUrlError";
	}
}

/** The longest hub URL accepted: far longer than any real address, short enough for one line. */
const MAX_HUB_URL_LENGTH = 2048;

/**
 * The hub snippets must target, normalised (no trailing slash), or undefined for the public hub.
 * Throws a HubUrlError for a value that is not a usable hub address.
 */
export function otherHubUrl(options: SnippetOptions | undefined): string | undefined {
	const raw = options?.hubUrl;
	if (raw === undefined) return undefined;
	if (typeof raw !== "string") throw new HubUrlError("must be a string");
	if (raw.length > MAX_HUB_URL_LENGTH)
		throw new HubUrlError(`is longer than ${MAX_HUB_URL_LENGTH} characters`);
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		throw new HubUrlError("is not an absolute URL");
	}
	if (url.protocol !== "http:" && url.protocol !== "https:")
		throw new HubUrlError(`must use http or https, not ${url.protocol.slice(0, -1)}`);
	// A snippet is copied and shared: credentials in it would leak, so they are refused outright.
	if (url.username !== "" || url.password !== "")
		throw new HubUrlError("must not carry a user name or password");
	if (url.search !== "" || url.hash !== "") throw new HubUrlError("must not have a query or a fragment");
	const normalised = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
	return normalised === PUBLIC_HUB_URL || normalised === "https://hf.co" ? undefined : normalised;
}

/** Whether the snippets target a hub other than the public one. */
export function targetsOtherHub(options: SnippetOptions | undefined): boolean {
	return otherHubUrl(options) !== undefined;
}

/** What a snippet loads: the private-repository note names it. */
export type SnippetRepoKind = "model" | "dataset";

/** Where a private repository's token comes from: the client reads HF_TOKEN (or what `hf auth login` saved). */
function tokenLine(hubUrl: string | undefined, kind: SnippetRepoKind): string {
	// `hf auth login` checks the token against HF_ENDPOINT's hub, so for another hub it needs the variable too.
	if (hubUrl === undefined)
		return `# Private ${kind}: set HF_TOKEN to your Hugging Face access token (or log in with \`hf auth login\`)`;
	return `# Private ${kind}: set HF_TOKEN to an access token of this hub (or log in with \`hf auth login\` with HF_ENDPOINT set)`;
}

/**
 * The lines a Python snippet starts with: the endpoint before any import (huggingface_hub reads it
 * once, at import), and for a private model where its token comes from. Empty for the public hub and
 * a public model.
 */
export function pythonPrelude(
	model: Pick<ModelData, "private">,
	hubUrl: string | undefined,
	kind: SnippetRepoKind = "model",
): string {
	const lines: string[] = [];
	if (hubUrl !== undefined) {
		lines.push(
			"import os",
			"",
			`# The ${kind}'s files are on this hub; set before importing any library (it is read once, at import)`,
			`os.environ["HF_ENDPOINT"] = ${pyString(hubUrl)}`,
		);
	}
	if (model.private === true) lines.push(tokenLine(hubUrl, kind));
	return lines.join("\n");
}

/** The lines a shell block starts with: the exported endpoint, and the token note for a private model. */
export function shellPrelude(model: ModelData, hubUrl: string | undefined): string {
	const lines: string[] = [];
	if (hubUrl !== undefined)
		lines.push("# The model's files are on this hub:", `export HF_ENDPOINT=${shWord(hubUrl)}`);
	if (model.private === true) lines.push(tokenLine(hubUrl, "model"));
	return lines.join("\n");
}

/** `VAR=url ` to put before one command (or "" for the public hub): the variable holds for that command only. */
export function envPrefix(hubUrl: string | undefined, variable = "HF_ENDPOINT"): string {
	return hubUrl === undefined ? "" : `${variable}=${shWord(hubUrl)} `;
}

/** The one-line note for a private model's shell commands, or undefined. */
export function tokenNote(
	model: Pick<ModelData, "private">,
	hubUrl: string | undefined,
	kind: SnippetRepoKind = "model",
): string | undefined {
	return model.private === true ? tokenLine(hubUrl, kind) : undefined;
}

/** Puts a prelude above a code block, separated by a blank line; the block alone when there is none. */
export function withPrelude(prelude: string, code: string): string {
	return prelude === "" ? code : `${prelude}\n\n${code}`;
}
