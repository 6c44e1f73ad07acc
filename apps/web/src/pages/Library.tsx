import { loadLibraryEntry } from "@modelhub/tasks";
import type { CodeBlock, ModelData, SnippetOptions } from "@modelhub/tasks";
import { Link, useParams } from "react-router";
import LIBRARY_INDEX from "virtual:library-index";
import { getModel, listModels } from "../api/models";
import { Code } from "../components/code";
import { ErrorNotice, Loading } from "../components/Status";
import { SnippetBlocks } from "../components/SnippetBlocks";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useResource } from "../hooks/useResource";
import { describeDownloadRule, type LibraryIndexEntry } from "../view/libraries";
import { modelHref, placeholderModel, toModelData } from "../view/model";
import { languageLabel } from "../view/snippets";
import { snippetHubUrl, snippetOptions } from "../view/snippet-hub";
import { useSettings } from "../settings/store";
import NotFound from "./NotFound";

export default function LibraryPage() {
	const { key = "" } = useParams();
	const library = Object.hasOwn(LIBRARY_INDEX, key) ? LIBRARY_INDEX[key] : undefined;
	useDocumentTitle(library?.prettyLabel ?? "Library not found");
	if (!library)
		return (
			<NotFound title="Library not found" message={`There is no library called “${key}” in the catalogue.`} />
		);
	return <LibraryView libraryKey={key} library={library} />;
}

function LibraryView({ libraryKey, library }: { libraryKey: string; library: LibraryIndexEntry }) {
	const api = useApiOptions();
	// The snippets are shown for the library's most downloaded model on the hub, or a stand-in model. The
	// generator is in the chunk of the library's family, loaded while the hub is asked for the model.
	const { hubUrl } = useSettings();
	const sample = useResource<{
		model: ModelData;
		fromHub: boolean;
		options: SnippetOptions;
		codeBlocks: (model: ModelData, options: SnippetOptions) => CodeBlock[];
	}>(
		async (signal) => {
			const findSample = async (): Promise<{
				model: ModelData;
				fromHub: boolean;
				options: SnippetOptions;
			}> => {
				try {
					const page = await listModels(
						{ library: libraryKey, sort: "downloads", direction: -1, limit: 1 },
						{ ...api, signal },
					);
					const first = page.models[0];
					if (first) {
						const info = await getModel(first.id, { ...api, signal });
						// The model's files are on this hub unless it carries only catalogue metadata.
						const options = snippetOptions(info, snippetHubUrl(hubUrl));
						return { model: toModelData(info), fromHub: true, options };
					}
				} catch (error) {
					if (signal.aborted) throw error;
				}
				return { model: placeholderModel(libraryKey), fromHub: false, options: {} };
			};
			const [found, entry] = await Promise.all([findSample(), loadLibraryEntry(library.family, libraryKey)]);
			return { ...found, codeBlocks: entry?.codeBlocks ?? (() => []) };
		},
		[libraryKey, library.family, api, hubUrl],
	);
	const languages = new Set<string>();
	const blocks =
		sample.status === "ready" ? sample.data.codeBlocks(sample.data.model, sample.data.options) : [];
	for (const block of blocks) languages.add(block.language);

	return (
		<article>
			<nav aria-label="Breadcrumb" className="breadcrumbs">
				<ol>
					<li>
						<Link to="/libraries">Libraries</Link>
					</li>
					<li aria-current="page">{library.prettyLabel}</li>
				</ol>
			</nav>
			<header className="page-header">
				<h1>{library.prettyLabel}</h1>
				<dl className="facts">
					<div>
						<dt>Key</dt>
						<dd>
							<code>{libraryKey}</code>
						</dd>
					</div>
					<div>
						<dt>Repository</dt>
						<dd>
							<a href={library.repoUrl}>{library.repoName}</a>
						</dd>
					</div>
					{library.docsUrl ? (
						<div>
							<dt>Documentation</dt>
							<dd>
								<a href={library.docsUrl}>{new URL(library.docsUrl).host}</a>
							</dd>
						</div>
					) : null}
					<div>
						<dt>In model filters</dt>
						<dd>{library.filter ? "Yes" : "No"}</dd>
					</div>
					<div>
						<dt>Languages</dt>
						<dd>{languages.size > 0 ? [...languages].map(languageLabel).join(", ") : "–"}</dd>
					</div>
				</dl>
				<p className="header-actions">
					<Link className="btn" to={`/models?library=${encodeURIComponent(libraryKey)}`}>
						Browse {library.prettyLabel} models
					</Link>
				</p>
			</header>

			{library.installCommand ? (
				<section aria-labelledby="install-title" className="section">
					<h2 id="install-title">Install</h2>
					<Code code={library.installCommand} language="sh" title="Install command" />
				</section>
			) : null}

			<section aria-labelledby="download-title" className="section">
				<h2 id="download-title">What counts as a download</h2>
				<p>
					<code>{describeDownloadRule(library.countDownloads)}</code>
				</p>
			</section>

			<section aria-labelledby="snippets-title" className="section">
				<h2 id="snippets-title">Usage snippets</h2>
				{sample.status === "loading" ? <Loading label="Finding a sample model" /> : null}
				{sample.status === "error" ? (
					<ErrorNotice title="The snippets could not be loaded">{sample.error.message}</ErrorNotice>
				) : null}
				{sample.status === "ready" ? (
					<>
						<p>
							Shown for{" "}
							{sample.data.fromHub ? (
								<Link to={modelHref(sample.data.model.id)}>{sample.data.model.id}</Link>
							) : (
								<>
									a stand-in model <code>{sample.data.model.id}</code> (the hub has no {library.prettyLabel}{" "}
									model)
								</>
							)}
							.
						</p>
						{blocks.length === 0 ? (
							<p className="muted">This library has no usage snippet in the catalogue.</p>
						) : (
							<SnippetBlocks blocks={blocks} />
						)}
					</>
				) : null}
			</section>
		</article>
	);
}
