import { useState } from "react";
import { useModule } from "../../hooks/useModule";
import { CARD_PATH, starterCard } from "../../view/edit";
import { Loading } from "../Status";

// The editor loads when someone who may write creates the card.
const loadEditor = () => import("./FileEditor");

/**
 * "Create model card" (or dataset card) where the repository has no README.md: the editor, opened with
 * a starter card, committed to main. The page's own repository type goes with the commit (useRepoType).
 */
export function CreateCard({
	repoId,
	kind,
	onCommitted,
}: {
	repoId: string;
	kind: "model" | "dataset";
	onCommitted: () => void;
}) {
	const [open, setOpen] = useState(false);
	const editor = useModule(loadEditor, open);
	if (!open)
		return (
			<div className="card-actions">
				<button
					type="button"
					className="btn btn-small"
					onMouseEnter={() => void loadEditor()}
					onFocus={() => void loadEditor()}
					onClick={() => setOpen(true)}
				>
					Create {kind} card
				</button>
			</div>
		);
	if (!editor) return <Loading label="Loading the editor" />;
	return (
		<>
			{/* The editor's title is an h3 (it sits under the files tab's h2 elsewhere). */}
			<h2 className="visually-hidden">New {kind} card</h2>
			<editor.NewFileEditor
				modelId={repoId}
				branch="main"
				path={CARD_PATH}
				initialText={starterCard(repoId, kind)}
				onCommitted={() => {
					setOpen(false);
					onCommitted();
				}}
				onCancel={() => setOpen(false)}
			/>
		</>
	);
}
