import type { ModelData } from "../libraries/types.js";
import type { PipelineType } from "../pipelines.js";
import type { SnippetOptions } from "../snippets/hub-endpoint.js";

/** One way to run a model with an app: an optional install step, then the commands. */
export interface LocalAppSnippet {
	/** What this way is, e.g. "Install with Homebrew". */
	title: string;
	/** Shell commands that install or prepare the app, run once. */
	setup?: string;
	/** Shell commands that run the model; each string is one block to copy. */
	content: string | string[];
}

/** What an app's `snippet` returns: one block, several blocks, or titled ways with their own setup. */
export type LocalAppSnippetOutput = string | string[] | LocalAppSnippet | LocalAppSnippet[];

interface LocalAppBase {
	/** Name shown on buttons. */
	prettyLabel: string;
	/** The app's site or documentation. */
	docsUrl: string;
	/** The task the app is mainly for. */
	mainTask: PipelineType;
	/** Whether to mark the app as macOS-only. */
	macOSOnly?: boolean;
	/** Whether the app is announced but not available yet. */
	comingSoon?: boolean;
	/**
	 * Whether the app is offered in a model page's "Use this model" menu for this model. With
	 * `options.hubUrl` naming another hub, only apps that can fetch the model from that hub are.
	 */
	displayOnModelPage: (model: ModelData, options?: SnippetOptions) => boolean;
}

/**
 * A local app: it either opens from a deep link, or gives shell commands to copy. `filepath` is the
 * repository file the user picked (a `.gguf` file), when there is one; `options` (last, optional, as
 * in the library snippet generators) names the hub serving the model when it is not the public one.
 */
export type LocalApp = LocalAppBase &
	(
		| {
				/** The URL that opens the app on this model. */
				deeplink: (model: ModelData, filepath?: string, options?: SnippetOptions) => URL;
		  }
		| {
				/** Commands to copy into a terminal; with `options.hubUrl`, they fetch from that hub. */
				snippet: (model: ModelData, filepath?: string, options?: SnippetOptions) => LocalAppSnippetOutput;
		  }
	);
