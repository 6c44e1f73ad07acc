/**
 * The offer table: which library release each client's snippets were checked against, and the pairs
 * where a library that supports a (provider, task) is still not offered because it cannot send the
 * request our client sends. `test/real-clients/` runs every offered snippet with these releases and
 * checks this table against the installed ones (versions, and huggingface_hub's own provider table).
 */

export interface ClientCheck {
	/** The library the snippet runs with. */
	library: string;
	/** The release it was checked against. */
	version: string;
	/** `run`: executed against the protocol servers; `compiled`: only parsed (the library cannot be installed). */
	checked: "run" | "compiled";
}

/** Per `{language}/{client}`: the library and release each snippet was checked against. */
export const CLIENT_CHECKS: Readonly<Record<string, ClientCheck>> = {
	"python/huggingface_hub": { library: "huggingface_hub", version: "2.0.0", checked: "run" },
	// fal-client is not on this machine's package mirror: its snippets are only parsed by python3.
	"python/fal_client": { library: "fal-client", version: "not installable here", checked: "compiled" },
	"python/requests": { library: "requests", version: "2.34.2", checked: "run" },
	"python/openai": { library: "openai", version: "3.22.1", checked: "run" },
	"js/fetch": { library: "node fetch", version: "node 20", checked: "run" },
	"js/huggingface.js": { library: "@modelhub/inference", version: "this package", checked: "run" },
	"js/openai": { library: "openai (npm)", version: "7.57.0", checked: "run" },
	"sh/curl": { library: "curl", version: "7.88.1", checked: "run" },
};

/**
 * Pairs huggingface_hub 2.0.0 supports where its snippet is not offered, keyed `"{provider} {task}"`,
 * each with what the library sends instead of our client's request (read in its
 * `inference/_providers/*.py`).
 */
export const HUGGINGFACE_HUB_NOT_OFFERED: Readonly<Record<string, string>> = {
	"deepinfra text-generation":
		'sends "max_tokens": null when no max_new_tokens is given, which OpenAI-style servers may read as "no limit"; our client leaves the provider default',
	"featherless-ai text-generation":
		'sends "max_tokens": null when no max_new_tokens is given, which OpenAI-style servers may read as "no limit"; our client leaves the provider default',
	"hf-inference tabular-classification":
		"sends `{table, parameters: {}}`; our client sends the incumbent's `{inputs: {data}}`",
	"hf-inference zero-shot-classification":
		"always sends `multi_label: false` in `parameters`; our client sends only what the call gives",
	"hf-inference zero-shot-image-classification":
		"sends the image as `inputs` itself; our client sends the incumbent's `{inputs: {image}, parameters}`",
	"novita text-to-video":
		"calls Novita's synchronous /v3/hf/{model}; our client submits to /v3/async/{model} and polls the task (a video can outlast one HTTP request)",
	"wavespeed image-to-image":
		"sends the image only as `image`; our client also sends `images`, which WaveSpeed's multi-image models read (huggingface.js 4.13.28)",
	"wavespeed image-to-video":
		"sends the image only as `image`; our client also sends `images`, which WaveSpeed's multi-image models read (huggingface.js 4.13.28)",
};
