/**
 * The body of the "Use this model" dialog: one tab per way to use the model, its library first, then
 * every local app that runs it (`localAppsForModel`: llama.cpp, Ollama, vLLM, LM Studio, the hf CLI…),
 * each named after the library or app. Loaded ahead of the click (see useModelLoader.ts).
 */
import {
	getLibraryCodeBlocks,
	getLocalAppSnippets,
	LOCAL_APPS,
	localAppsForModel,
	MODEL_LIBRARIES_UI_ELEMENTS,
	type LocalApp,
	type ModelData,
	type SnippetOptions,
} from "@modelhub/tasks";
import { Link } from "react-router";
import type { ModelDetail } from "../../api/models";
import { toModelData } from "../../view/model";
import { snippetHubUrl, snippetOptions } from "../../view/snippet-hub";
import { useSettings } from "../../settings/store";
import { Code } from "../code";
import { SnippetBlocks } from "../SnippetBlocks";
import { Tabs, type TabItem } from "../Tabs";

const LIBRARIES = MODEL_LIBRARIES_UI_ELEMENTS as Record<
	string,
	{ prettyLabel: string; installCommand?: string; docsUrl?: string } | undefined
>;

interface PanelProps {
	model: ModelData;
	/** Where the snippets fetch the model from (see view/snippet-hub.ts). */
	options: SnippetOptions;
}

function LibraryPanel({ libraryKey, model, options }: PanelProps & { libraryKey: string }) {
	const library = LIBRARIES[libraryKey];
	const blocks = getLibraryCodeBlocks(libraryKey, model, options);
	return (
		<div className="use-model-panel">
			<p>
				{library ? (
					<>
						With <Link to={`/libraries/${encodeURIComponent(libraryKey)}`}>{library.prettyLabel}</Link>, the
						model's library.
					</>
				) : (
					<>
						The library <code>{libraryKey}</code> is not in the catalogue.
					</>
				)}
			</p>
			{library?.installCommand ? <Code code={library.installCommand} language="sh" title="Install" /> : null}
			{blocks.length > 0 ? (
				<SnippetBlocks blocks={blocks} />
			) : (
				<p className="muted">There is no snippet for this library yet.</p>
			)}
		</div>
	);
}

function LocalAppPanel({ app, model, options }: PanelProps & { app: LocalApp }) {
	const ways = getLocalAppSnippets(app, model, undefined, options);
	return (
		<div className="use-model-panel">
			<p>
				Run it locally with{" "}
				<a href={app.docsUrl} rel="noopener noreferrer">
					{app.prettyLabel}
				</a>
				{app.macOSOnly ? " (macOS only)" : ""}.
			</p>
			{"deeplink" in app ? (
				<p>
					<a className="btn btn-primary" href={app.deeplink(model, undefined, options).href}>
						Open in {app.prettyLabel}
					</a>
				</p>
			) : null}
			{ways.map((way, index) => (
				<div key={index} className="local-app-way">
					{way.title ? <h3 className="use-model-way">{way.title}</h3> : null}
					{way.setup ? <Code code={way.setup} language="sh" title="Install" /> : null}
					{way.content.map((content, part) => (
						<Code
							key={part}
							code={content}
							language="sh"
							title={way.content.length > 1 ? `Run (step ${part + 1})` : "Run"}
						/>
					))}
				</div>
			))}
		</div>
	);
}

export default function UseModel({ model }: { model: ModelDetail }) {
	const data = toModelData(model);
	const { hubUrl } = useSettings();
	const options = snippetOptions(model, snippetHubUrl(hubUrl));
	const items: TabItem[] = [];
	if (model.library_name) {
		items.push({
			id: `library-${model.library_name}`,
			label: LIBRARIES[model.library_name]?.prettyLabel ?? model.library_name,
			content: <LibraryPanel libraryKey={model.library_name} model={data} options={options} />,
		});
	}
	for (const key of localAppsForModel(data, options)) {
		const app = LOCAL_APPS[key] as LocalApp;
		items.push({
			id: `app-${key}`,
			label: app.prettyLabel,
			content: <LocalAppPanel app={app} model={data} options={options} />,
		});
	}
	return (
		<div className="use-model">
			{options.hubUrl ? (
				<p className="muted use-model-hub">
					The model's files are on this hub: the snippets fetch them from <code>{options.hubUrl}</code>
					{model.private ? ", with an access token of this hub in HF_TOKEN" : ""}.
				</p>
			) : null}
			<Tabs label="Ways to use this model" className="use-model-tabs" items={items} />
		</div>
	);
}
