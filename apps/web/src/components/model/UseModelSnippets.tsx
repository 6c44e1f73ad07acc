import { getLibraryCodeBlocks, MODEL_LIBRARIES_UI_ELEMENTS } from "@modelhub/tasks";
import { Link } from "react-router";
import type { ModelDetail } from "../../api/models";
import { toModelData } from "../../view/model";
import { Code } from "../code";
import { SnippetTabs } from "../SnippetTabs";

const LIBRARIES = MODEL_LIBRARIES_UI_ELEMENTS as Record<
	string,
	{ prettyLabel: string; installCommand?: string } | undefined
>;

/** The body of the "Use this model" dialog: the library's snippets for this model, one tab each. */
export default function UseModelSnippets({ model }: { model: ModelDetail }) {
	const key = model.library_name ?? "";
	const library = LIBRARIES[key];
	const blocks = getLibraryCodeBlocks(key, toModelData(model));
	return (
		<div className="use-model">
			<p>
				{library ? (
					<>
						How to use this model with{" "}
						<Link to={`/libraries/${encodeURIComponent(key)}`}>{library.prettyLabel}</Link>.
					</>
				) : (
					<>
						The library <code>{key}</code> is not in the catalogue.
					</>
				)}
			</p>
			{library?.installCommand ? <Code code={library.installCommand} language="sh" title="Install" /> : null}
			{blocks.length > 0 ? (
				<SnippetTabs label="Code snippets" blocks={blocks} />
			) : (
				<p className="muted">There is no snippet for this library yet.</p>
			)}
		</div>
	);
}
