/**
 * The body of the "Use this dataset" dialog: one tab per way to use the dataset that its files allow
 * (`datasetLibrariesFor`: datasets, pandas, Polars, DuckDB, huggingface_hub, the hf CLI; git on the public hub),
 * each with its generated, copyable code. A chunk of its own, loaded when the button is reached.
 */
import type { DatasetAnswer } from "@modelhub/hub/api";
import { DATASET_LIBRARIES, datasetLibrariesFor, type DatasetData } from "@modelhub/tasks/dataset-libraries";
import { useSettings } from "../../settings/store";
import { snippetHubUrl, snippetOptions } from "../../view/snippet-hub";
import { SnippetBlocks } from "../SnippetBlocks";
import { Tabs, type TabItem } from "../Tabs";

/** What the generators read of dataset info: its id, privacy, files and card. */
export function toDatasetData(dataset: DatasetAnswer): DatasetData {
	return {
		id: dataset.id,
		private: dataset.private === true,
		files: (dataset.siblings ?? []).map((sibling) => sibling.rfilename),
		...(dataset.cardData ? { cardData: dataset.cardData } : {}),
	};
}

export default function UseDataset({ dataset }: { dataset: DatasetAnswer }) {
	const data = toDatasetData(dataset);
	const { hubUrl } = useSettings();
	const options = snippetOptions({}, snippetHubUrl(hubUrl));
	const items: TabItem[] = datasetLibrariesFor(data, options).map((key) => {
		const library = DATASET_LIBRARIES[key];
		return {
			id: `library-${key}`,
			label: library.prettyLabel,
			content: (
				<div className="use-model-panel">
					<p>
						With{" "}
						<a href={library.docsUrl} rel="noopener noreferrer">
							{library.prettyLabel}
						</a>
						.
					</p>
					<SnippetBlocks blocks={library.codeBlocks(data, options)} />
				</div>
			),
		};
	});
	return (
		<div className="use-model">
			{options.hubUrl ? (
				<p className="muted use-model-hub">
					The dataset's files are on this hub: the snippets fetch them from <code>{options.hubUrl}</code>
					{dataset.private ? ", with an access token of this hub in HF_TOKEN" : ""}.
				</p>
			) : null}
			<Tabs label="Ways to use this dataset" className="use-model-tabs" items={items} />
		</div>
	);
}
